#!/usr/bin/env bash
# Figures of long runs, measured on this machine: what docs/src/speed.md's script cannot afford
# (it runs in CI, in seconds). Not run by CI.
#
# Usage: bash scripts/loop-figures.sh
#   Prints the machine, then one line per figure, `id: value unit (command)`, as
#   scripts/speed-figures.sh does.
#
# Each figure is one function below (`figure_...`), called at the end; a new figure is a new
# function and a line there. `target/release/ferastrau` is built first unless
# FERASTRAU_PREBUILT=1. Workers are built at the default opt-level (3), as a user's runs are.
#
# Figures:
# - binomial_heap_7: `evaluate --benchmark binomial_heap --scopes 7` at this checkout and at
#   commit ecf9328 (the runner regression of issue 56, item 4: 59.7 M executions, 1.66x slower
#   per execution than at 5c50ea1), back to back, each after a scope-1 run that builds its
#   metamutant and worker; both wall and CPU times and the ratios. ecf9328 is checked out and
#   built in a git worktree under target/loop-figures/ (kept for the next run). Cost: about 160
#   CPU-seconds, 3 minutes of wall time on 2 cores once both are built (the first run also
#   builds ecf9328 and both workers, a few minutes more).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

[[ ${FERASTRAU_PREBUILT:-} == 1 ]] || cargo build --release -p ferastrau
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

echo "# measured on $(date -u +%Y-%m-%d) (UTC), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs, at commit $(git describe --always --dirty)"
figure_binomial_heap_7
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"
