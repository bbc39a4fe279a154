#!/usr/bin/env bash
# Figures of long runs, measured on this machine: what docs/src/speed.md's script cannot afford
# (it runs in CI, in seconds). Not run by CI.
#
# Usage: bash scripts/loop-figures.sh [--write] [FIGURE...]   (edit_loop, fresh_clone, binomial_heap_7)
#   --write also puts what it prints into docs/src/speed.md, between its loop-figures markers.
#   Prints the machine, then one line per figure, `id: value unit (command)`, as
#   scripts/speed-figures.sh does.
#
# Each figure is one function below (`figure_...`), called at the end; a new figure is a new
# function and a line there. `target/release/ferastrau` is built first unless
# FERASTRAU_PREBUILT=1. Workers are built at the default opt-level (3), as a user's runs are,
# unless FERASTRAU_OPT_LEVEL says otherwise (then the figures' commands say so).
#
# CI runs the edit loop alone, at opt-level 0 on the workers' dependencies its tests built
# (CARGO_TARGET_DIR=target): about 5 s, its figures printed in CI's log, not compared.
#
# Figures:
# - binomial_heap_7: `evaluate --benchmark binomial_heap --scopes 7` at this checkout and at
#   commit ecf9328 (the runner regression of issue 56, item 4: 59.7 M executions, 1.66x slower
#   per execution than at 5c50ea1), back to back, each after a scope-1 run that builds its
#   metamutant and worker; both wall and CPU times and the ratios. ecf9328 is checked out and
#   built in a git worktree under target/loop-figures/ (kept for the next run). Cost: about 160
#   CPU-seconds, 3 minutes of wall time on 2 cores once both are built (the first run also
#   builds ecf9328 and both workers, a few minutes more).
# - edit_loop: a user's everyday loop on a small crate (testdata/leftist, a leftist heap of 235
#   lines, copied out of the checkout as a user's crate): `evaluate --scopes 1..4` once to build
#   everything, then three times one line of `merge` edited (back and forth) and `evaluate
#   --scopes 1..4` timed (mutation, the compiler's comparison, the worker's build and the
#   evaluation), each followed by the evaluation's own time (the same command again, the
#   metamutant and worker cached); the medians. Cost: about 45 CPU-seconds the first time
#   (the crate's dependencies at opt-level 3), 10 after.
# - fresh_clone: the README's main job on a clean clone of this checkout's HEAD, `cargo run
#   --release -- evaluate --benchmark search_tree --scopes 1..7`, building the CLI and every
#   worker from nothing (crates from cargo's registry cache, no network). Cost: about 150
#   CPU-seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

[[ ${FERASTRAU_PREBUILT:-} == 1 ]] || cargo build --release -p ferastrau
# The settings a figure's command runs with, when the caller changed them (CI's edit loop runs
# at opt-level 0, on the workers' dependencies its tests built): part of what it measured.
settings=
for var in FERASTRAU_OPT_LEVEL FERASTRAU_COMPILER_EQUIVALENCE; do
  [[ -n ${!var:-} ]] && settings+="$var=${!var} "
done
work=$(mktemp -d "${TMPDIR:-/tmp}/loop-figures.XXXXXX")
trap 'rm -rf "$work"' EXIT

# CPU seconds (user + system) of this shell's finished children so far, from /proc.
tick=$(getconf CLK_TCK)
cpu() { awk -v t="$tick" '{ printf "%.2f", ($16 + $17) / t }' "/proc/$$/stat"; }

# checkout COMMIT: a worktree of COMMIT under target/loop-figures/ with its ferastrau built
# (into its own target directory); sets $tree.
checkout() {
  tree=$root/target/loop-figures/$1
  if [[ ! -d $tree ]]; then
    git worktree add --detach "$tree" "$1" >&2
  fi
  (cd "$tree" && cargo build --release -p ferastrau) >&2
}

# timed DIR OUT ARGS...: `ferastrau ARGS --out OUT --format json` run in checkout DIR with its
# own binary; sets $wall, $cpu_s (the command's and every process it started) and $runner (the
# mutant phase's `runner.seconds`). A failure prints the command's stderr and stops.
timed() {
  local dir=$1 out=$2 t c
  shift 2
  rm -rf "$out"
  t=$EPOCHREALTIME
  c=$(cpu)
  (cd "$dir" && ./target/release/ferastrau "$@" --out "$out" --format json) \
    >"$work/out.json" 2>"$work/err" || {
    echo "loop-figures: ferastrau $* (in $dir) failed:" >&2
    cat "$work/err" >&2
    exit 1
  }
  wall=$(awk -v a="$t" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  cpu_s=$(awk -v a="$c" -v b="$(cpu)" 'BEGIN { printf "%.1f", b - a }')
  runner=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["runner"]["seconds"], 1))' "$work/out.json")
  rm -rf "$out"
}

figure_binomial_heap_7() {
  local base=ecf9328 args=(--quiet evaluate --benchmark binomial_heap)
  local cmd="ferastrau ${args[*]} --scopes 7 --format json"
  checkout "$base"
  # Metamutants and workers built (or found) at both commits before anything is timed.
  timed "$root" "$work/warm" "${args[@]}" --scopes 1
  timed "$tree" "$work/warm" "${args[@]}" --scopes 1
  timed "$tree" "$work/base" "${args[@]}" --scopes 7
  local base_wall=$wall base_cpu=$cpu_s base_runner=$runner
  timed "$root" "$work/here" "${args[@]}" --scopes 7
  echo "binomial_heap_7.wall_seconds: $wall s ($cmd)"
  echo "binomial_heap_7.cpu_seconds: $cpu_s CPU-s ($cmd)"
  echo "binomial_heap_7.runner_seconds: $runner s ($cmd; runner.seconds)"
  echo "binomial_heap_7.$base.wall_seconds: $base_wall s ($cmd, at commit $base)"
  echo "binomial_heap_7.$base.cpu_seconds: $base_cpu CPU-s ($cmd, at commit $base)"
  echo "binomial_heap_7.$base.runner_seconds: $base_runner s ($cmd, at commit $base; runner.seconds)"
  echo "binomial_heap_7.wall_ratio: $(awk -v a="$wall" -v b="$base_wall" 'BEGIN { printf "%.2f", a / b }') x ($cmd, this checkout over commit $base)"
  echo "binomial_heap_7.cpu_ratio: $(awk -v a="$cpu_s" -v b="$base_cpu" 'BEGIN { printf "%.2f", a / b }') x ($cmd, this checkout over commit $base)"
}

figure_edit_loop() {
  local crate=$work/leftist cmd="${settings}ferastrau evaluate --scopes 1..4"
  cp -r "$root/testdata/leftist" "$crate"
  rm -rf "$crate/target" "$crate/ferastrau.out"
  sed -i "s|path = \"../../harness/sdk\"|path = \"$root/harness/sdk\"|" "$crate/Cargo.toml"
  cp "$root/Cargo.lock" "$crate/"
  local line='            x.rank = rank(&x.right) + 1;' edited='            x.rank = 1 + rank(&x.right);'
  grep -qF "$line" "$crate/src/heap.rs" || {
    echo "loop-figures: testdata/leftist/src/heap.rs no longer has the line the edit changes" >&2
    exit 1
  }
  run_in() { (cd "$crate" && "$root/target/release/ferastrau" --quiet evaluate --scopes 1..4 --out "$1") >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; }
  run_in "$work/warm"
  # Three edits, each timed, then the same command with nothing changed (the evaluation's own
  # time); each edit swaps the line for the other text, so every one changes the crate.
  local i t c walls=() cpus=() owns=() from=$line to=$edited
  for i in 1 2 3; do
    t=$EPOCHREALTIME c=$(cpu)
    python3 -c 'import sys; p, a, b = sys.argv[1:]; t = open(p).read(); open(p, "w").write(t.replace(a, b, 1))' \
      "$crate/src/heap.rs" "$from" "$to"
    run_in "$work/edited-$i"
    walls+=("$(awk -v a="$t" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')")
    cpus+=("$(awk -v a="$c" -v b="$(cpu)" 'BEGIN { print b - a }')")
    t=$EPOCHREALTIME
    run_in "$work/again-$i"
    owns+=("$(awk -v a="$t" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')")
    local swap=$from
    from=$to to=$swap
  done
  median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
  local edit_wall edit_cpu own
  edit_wall=$(median "${walls[@]}") edit_cpu=$(median "${cpus[@]}") own=$(median "${owns[@]}")
  echo "edit_loop.wall_seconds: $(printf '%.2f' "$edit_wall") s ($cmd in a copy of testdata/leftist after a one-line edit of merge; the median of 3 edits)"
  echo "edit_loop.cpu_seconds: $(printf '%.1f' "$edit_cpu") CPU-s ($cmd in a copy of testdata/leftist after a one-line edit of merge; the median of 3 edits)"
  echo "edit_loop.evaluation_seconds: $(printf '%.2f' "$own") s ($cmd, the metamutant and worker cached: the evaluation's own time; the median of 3 runs, one after each edit's)"
  echo "edit_loop.ratio: $(awk -v a="$edit_wall" -v b="$own" 'BEGIN { printf "%.1f", a / b }') x (the edit's run over the evaluation's own time, medians)"
}

figure_fresh_clone() {
  local clone=$work/clone cmd="cargo run --release -- evaluate --benchmark search_tree --scopes 1..7"
  git clone --quiet "$root" "$clone"
  local t c
  t=$EPOCHREALTIME c=$(cpu)
  (cd "$clone" && env -u CARGO_TARGET_DIR cargo run --release --quiet -- --quiet evaluate --benchmark search_tree --scopes 1..7) >/dev/null 2>"$work/err" || {
    cat "$work/err" >&2
    exit 1
  }
  echo "fresh_clone.wall_seconds: $(awk -v a="$t" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s ($cmd in a fresh clone)"
  echo "fresh_clone.cpu_seconds: $(awk -v a="$c" -v b="$(cpu)" 'BEGIN { printf "%.1f", b - a }') CPU-s ($cmd in a fresh clone)"
}

write=0
if [[ ${1:-} == --write ]]; then
  write=1
  shift
fi
exec 3>&1
out=$work/figures
exec >"$out"
echo "# measured on $(date -u +%Y-%m-%d) (UTC), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs, at commit $(git describe --always --dirty)"
# A figure's name as argument runs that one only (`bash scripts/loop-figures.sh edit_loop`).
for f in "${@:-edit_loop fresh_clone binomial_heap_7}"; do
  for one in $f; do "figure_$one"; done
done
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"
exec >&3
cat "$out"
# --write: the figures into docs/src/speed.md, between its loop-figures markers, as printed.
if ((write)); then
  python3 - "$out" docs/src/speed.md <<'PY'
import sys
figures, page = sys.argv[1:]
text = open(page).read()
begin = "<!-- loop-figures: written by `bash scripts/loop-figures.sh --write`; not run by CI -->"
end = "<!-- /loop-figures -->"
start, stop = text.index(begin) + len(begin), text.index(end)
block = "\n```text\n" + open(figures).read() + "```\n"
open(page, "w").write(text[:start] + block + text[stop:])
PY
fi
