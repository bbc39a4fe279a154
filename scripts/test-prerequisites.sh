#!/usr/bin/env bash
# What `cargo test --workspace --release` needs besides Rust, installed or located:
#
# - Chromium, for the HTML report's test (headless: it opens report.html, replays keys,
#   counts what the page shows). Found at $FERASTRAU_CHROMIUM, /usr/bin/chromium,
#   /usr/bin/chromium-browser or as `chromium` on the PATH; otherwise installed with the
#   system's package manager (apt-get, dnf, zypper, pacman or apk; sudo when not root).
# - git and script(1), which the gate's pull-request and CI-recipe tests and the terminal
#   tests run; installed with the package manager when missing (`git`; `script` is in
#   util-linux, or bsdutils on Debian).
# - The published mutation-testing-report schema, which the schema tests validate against:
#   vendored in testdata/mutation-testing-report-schema/ (no npm, no network at test time);
#   checked here.
#
# Idempotent: a second run finds everything and changes nothing. Prints what the tests will
# use; exits non-zero, saying what is missing, when it cannot provide it. .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "test-prerequisites: $*"; }

# The Chromium the tests use: the same search as harness/cli/tests/integration/support/chromium.rs.
find_chromium() {
  local c
  if [[ -n ${FERASTRAU_CHROMIUM:-} ]]; then
    [[ -x $FERASTRAU_CHROMIUM ]] && { echo "$FERASTRAU_CHROMIUM"; return 0; }
    return 1
  fi
  for c in /usr/bin/chromium /usr/bin/chromium-browser; do
    [[ -x $c ]] && { echo "$c"; return 0; }
  done
  for c in chromium chromium-browser; do
    command -v "$c" 2>/dev/null && return 0
  done
  return 1
}

install_chromium() {
  local sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  if command -v apt-get >/dev/null; then
    # Debian's package is `chromium`; Ubuntu's `chromium-browser` is a snap wrapper, which
    # works only where snapd does.
    "${sudo[@]}" apt-get update
    if apt-cache show chromium >/dev/null 2>&1; then
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends chromium
    else
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y chromium-browser
    fi
  elif command -v dnf >/dev/null; then
    "${sudo[@]}" dnf install -y chromium
  elif command -v zypper >/dev/null; then
    "${sudo[@]}" zypper --non-interactive install chromium
  elif command -v pacman >/dev/null; then
    "${sudo[@]}" pacman -S --noconfirm --needed chromium
  elif command -v apk >/dev/null; then
    "${sudo[@]}" apk add chromium
  else
    say "no known package manager (apt-get, dnf, zypper, pacman, apk): install Chromium and set FERASTRAU_CHROMIUM to its binary" >&2
    return 1
  fi
}

# A package by the package manager at hand (the same ones as for Chromium).
install_package() {
  local sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  if command -v apt-get >/dev/null; then
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "$@"
  elif command -v dnf >/dev/null; then
    "${sudo[@]}" dnf install -y "$@"
  elif command -v zypper >/dev/null; then
    "${sudo[@]}" zypper --non-interactive install "$@"
  elif command -v pacman >/dev/null; then
    "${sudo[@]}" pacman -S --noconfirm --needed "$@"
  elif command -v apk >/dev/null; then
    "${sudo[@]}" apk add "$@"
  else
    say "no known package manager: install $*" >&2
    return 1
  fi
}

command -v git >/dev/null || { say "git not found: installing it"; install_package git; }
if ! command -v script >/dev/null; then
  say "script(1) not found: installing it"
  if command -v apt-get >/dev/null; then install_package bsdutils; else install_package util-linux; fi
fi
say "git: $(command -v git); script: $(command -v script)"

if [[ -n ${FERASTRAU_CHROMIUM:-} ]] && ! find_chromium >/dev/null; then
  say "FERASTRAU_CHROMIUM=$FERASTRAU_CHROMIUM is not an executable" >&2
  exit 1
fi
if ! chromium=$(find_chromium); then
  say "Chromium not found: installing it"
  install_chromium
  chromium=$(find_chromium) || { say "Chromium still not found after installing it" >&2; exit 1; }
fi
# It must start headless here (a snap wrapper without snapd, say, does not).
version=$("$chromium" --headless --no-sandbox --disable-gpu --version 2>/dev/null) || {
  say "$chromium does not start: $("$chromium" --version 2>&1 | head -3)" >&2
  exit 1
}
say "chromium: $chromium ($version)"

schema=testdata/mutation-testing-report-schema/mutation-testing-report-schema.json
[[ -s $schema ]] || { say "$schema is missing: it is part of the checkout (git checkout -- $schema)" >&2; exit 1; }
say "report schema: $schema (vendored)"
