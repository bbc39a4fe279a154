#!/usr/bin/env bash
# The user's path, end to end, as the README's quick start gives it, with nothing of this
# checkout reachable:
#
# 1. `cargo package` of every published crate of the workspace (publish not false): the files
#    crates.io would get.
# 2. A stand-in for crates.io: a directory source (`cargo vendor` of the workspace's
#    third-party crates, plus the packaged crates unpacked) that replaces crates.io in a
#    temporary CARGO_HOME. Cargo resolves `ferastrau`, `ferastrau-sdk` and the worker runtime
#    from it as it would from crates.io the day they are published.
# 3. The README's quick start, line by line, in an empty temporary directory: its first line
#    (`cargo install ...`) builds the binaries from the stand-in. That copy of the crates is
#    then deleted and the rest runs on a second copy at another path, so a path of the first
#    (where the binary was compiled) that the binary used at run time would fail the run.
#    `strings` of the installed binaries must hold neither that path nor this checkout's.
# 4. The rest (init, cargo test, evaluate, gate) runs under strace: every file it creates,
#    writes, renames or removes must lie in the temporary directory this script made (the
#    crate, its target directory, CARGO_HOME, TMPDIR), or in /dev. The listing is printed.
#    (A run that wrote into the install's own build tree, the way the old binary wrote into
#    its checkout's target/, fails both this and the strings check.)
#
# Run by .ci/run; `bash scripts/install-test.sh` runs it alone. Needs strace (installed with
# apt-get when missing, as scripts/test-prerequisites.sh installs what the tests need).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
say() { echo "install-test: $*"; }

if ! command -v strace >/dev/null; then
  say "installing strace"
  sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq strace >/dev/null
fi

t=$(mktemp -d "${TMPDIR:-/tmp}/ferastrau-install-test.XXXXXX")
t=$(cd "$t" && pwd -P)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/tmp" "$t/work" "$t/cargo-home"

# 1. The published crates, packaged (the install below is their build check).
mapfile -t published < <(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] != []:
        print(p["name"])')
say "packaging ${published[*]}"
cargo package --quiet --no-verify --allow-dirty --locked --target-dir "$t/package-target" \
  "${published[@]/#/--package=}"

# 2. The stand-in for crates.io.
cargo vendor --quiet --locked --versioned-dirs "$t/vendor" >/dev/null
# registry DIR: the vendored crates and the packaged ones, as a directory source.
registry() {
  cp -al "$t/vendor" "$1"
  local crate name sum
  for crate in "$t"/package-target/package/*.crate; do
    name=$(basename "$crate" .crate)
    tar -xzf "$crate" -C "$1"
    sum=$(sha256sum "$crate" | cut -d' ' -f1)
    printf '{"files":{},"package":"%s"}\n' "$sum" >"$1/$name/.cargo-checksum.json"
  done
  cat >"$t/cargo-home/config.toml" <<EOF
[source.crates-io]
replace-with = "stand-in"

[source.stand-in]
directory = "$1"
EOF
}

# 3. The README's quick start: the lines of the sh block after the install-test marker.
mapfile -t lines < <(awk '/<!-- install-test/ { marked = 1; next }
  marked && /^```sh/ { inside = 1; next }
  inside && /^```/ { exit }
  inside { print }' README.md)
((${#lines[@]} > 1)) || { say "README.md has no quick start after an install-test marker" >&2; exit 1; }
[[ ${lines[0]} == "cargo install "* ]] || { say "the quick start does not begin with cargo install" >&2; exit 1; }

export CARGO_HOME=$t/cargo-home TMPDIR=$t/tmp PATH=$t/cargo-home/bin:$PATH
if command -v rustup >/dev/null; then
  RUSTUP_HOME=$(rustup show home)
  export RUSTUP_HOME
fi
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR RUSTFLAGS RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
# Workers unoptimised, as in the tests: the figures do not depend on the optimiser. The
# crate's own `cargo test` without debug info or incremental state, which nothing here reads:
# CI's time is tight, and the compiled code is the same.
export FERASTRAU_OPT_LEVEL=${FERASTRAU_OPT_LEVEL:-0} CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0

registry "$t/registry-first"
# The install compiles every crate it needs, cold on a fresh clone: with cargo's default
# release profile that took 2 min 16 s on 2 cores before it had built 98 of its 135 crates.
# The binary runs no hot loop (the workers it builds, with a profile of their own, do), so
# the test builds it unoptimised, with cargo's default 16 codegen units (256 took 10% more
# CPU: 105 CPU-s for the whole test against 95). In a target directory of this run's: cargo
# takes a registry crate of a given version as unchanged, so a kept one would serve a second
# run the binary of the first run's sources.
cat >>"$CARGO_HOME/config.toml" <<EOF

[profile.release]
opt-level = 0
debug = false
incremental = false

[profile.release.build-override]
opt-level = 0
EOF
say "\$ ${lines[0]}"
started=$SECONDS
# Source paths in panic messages (`file!()`) are remapped: what remains of the stand-in's path
# in the binary below is a path it would use (a `CARGO_MANIFEST_DIR` compiled in, say).
(cd "$t/work" && CARGO_TARGET_DIR=$t/install-target \
  RUSTFLAGS="--remap-path-prefix=$t/registry-first=/registry" \
  bash -euo pipefail -c "${lines[0]}")
say "installed in $((SECONDS - started)) s: $(ls "$CARGO_HOME/bin" | tr '\n' ' ')"
rm -rf "$t/registry-first"
registry "$t/registry"

for bin in "$CARGO_HOME"/bin/*; do
  strings "$bin" >"$t/strings"
  for place in "$checkout" "$t/registry-first"; do
    if grep -F "$place" "$t/strings" >"$t/found"; then
      say "$(basename "$bin") holds the path $place:" >&2
      head -5 "$t/found" >&2
      exit 1
    fi
  done
done

# 4. The rest of the quick start, traced.
script=$t/quick-start.sh
printf '%s\n' "${lines[@]:1}" >"$script"
say "running, under strace:"
sed 's/^/  $ /' "$script"
started=$SECONDS
status=0
(cd "$t/work" && strace -f -qq --seccomp-bpf -y -e status=successful -o "$t/trace" \
  -e trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,link,linkat,symlink,symlinkat,truncate,chdir,fchdir,clone,clone3,fork,vfork \
  bash -euxo pipefail "$script") || status=$?
say "the quick start took $((SECONDS - started)) s (status $status)"
((status == 0)) || exit "$status"

python3 scripts/written-places.py "$t/trace" "$t/work" "$t/work" "$CARGO_HOME" "$TMPDIR"

# The builds went to the crate's own target directory.
crate=$(find "$t/work" -mindepth 1 -maxdepth 1 -type d | head -1)
[[ -d $crate/target/ferastrau/build ]] || { say "no builds under $crate/target/ferastrau" >&2; exit 1; }
say "passed: installed from the packaged crates; init, test, evaluate and gate wrote only under $t"
