#!/usr/bin/env bash
# The figures of docs/src/speed.md, measured on this machine.
#
# Usage: bash scripts/speed-figures.sh [--write | --check]
#   (no option)  measures, then prints the machine and one line per figure,
#                `id: value unit (command)`
#   --write      also rewrites the generated block of docs/src/speed.md (between its markers)
#                with the figures, the date, the machine and the command of each
#   --check      (what CI runs) also fails, with status 1, when the block names a figure this
#                script no longer prints, or gives a figure another unit or command, or lacks
#                one it prints. Values are not compared: timings vary with the machine and load.
#
# What it runs, with `target/release/ferastrau` (built first unless FERASTRAU_PREBUILT=1, as
# reports/gate.sh) and the workers at opt-level 0, as the tests and CI's gate build them (so in
# CI the worker is already built: the runs are warm):
# - `generate --benchmark search_tree --scopes 7 --jobs 1`: Korat's search of the paper's
#   largest SearchTree scope, one run to build or find the worker, then 3 measured;
# - `evaluate --benchmark search_tree --scopes 1..6`: one run to build or find the metamutant,
#   then 3 measured;
# - `evaluate --benchmark binomial_heap --scopes 5`: the same, for the runner's executions per
#   CPU-second (420,000 executions of a mutant on an input, most of the command's CPU time), so
#   that a change that makes each execution dearer shows the day it lands.
# Each figure is the median of its 3 runs. Cost, warm: about 17 CPU-seconds, 12 s of wall time
# on 2 cores (the first run on a checkout also builds the workers and their dependencies at
# opt-level 0). With --check, one run each and no unmeasured one first (about 5 CPU-seconds in
# CI, where the gate has built these workers).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case $mode in
  "" | --write | --check) ;;
  *)
    echo "usage: bash scripts/speed-figures.sh [--write | --check]" >&2
    exit 2
    ;;
esac
doc=docs/src/speed.md
# The median of 3 runs for the figures written; --check compares ids, units and commands, not
# values, so one run serves (CI's time is tight), and it needs no unmeasured run first (in CI
# the gate has built the workers; elsewhere the one run builds what it needs).
runs=3 warm=1
[[ $mode == --check ]] && runs=1 warm=0

# The machine, before anything runs.
load_before=$(awk '{ print $1 ", " $2 ", " $3 }' /proc/loadavg)
cores=$(nproc)
cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cpu_model=${cpu_model:-$(uname -m)}
date=$(date -u +%Y-%m-%d)
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)

[[ ${FERASTRAU_PREBUILT:-} == 1 ]] || cargo build --release -p ferastrau
bin=$PWD/target/release/ferastrau
export FERASTRAU_OPT_LEVEL=0

work=$(mktemp -d "${TMPDIR:-/tmp}/speed-figures.XXXXXX")
trap 'rm -rf "$work"' EXIT

# CPU seconds (user + system) of this script's finished children so far, from /proc.
tick=$(getconf CLK_TCK)
cpu() { awk -v t="$tick" '{ printf "%.2f", ($16 + $17) / t }' "/proc/$$/stat"; }

# run NAME ARGS...: ferastrau ARGS once unmeasured (it builds or finds what it needs; not with
# --check), then $runs times, each run's stdout in $work/NAME-i.json and its wall and CPU
# seconds in $work/NAME-i.time. A failure prints the command's stderr.
run() {
  local name=$1 i t c
  shift
  if ((warm)) && ! "$bin" "$@" >/dev/null 2>"$work/$name.err"; then
    echo "speed-figures: ferastrau $* failed:" >&2
    cat "$work/$name.err" >&2
    exit 1
  fi
  for ((i = 1; i <= runs; i++)); do
    t=$EPOCHREALTIME
    c=$(cpu)
    "$bin" "$@" >"$work/$name-$i.json" 2>"$work/$name.err" || {
      cat "$work/$name.err" >&2
      exit 1
    }
    echo "$t $EPOCHREALTIME $c $(cpu)" >"$work/$name-$i.time"
  done
}

generate=(--quiet generate --benchmark search_tree --scopes 7 --jobs 1 --format json)
evaluate=(--quiet evaluate --benchmark search_tree --scopes 1..6 --out target/speed/search_tree --format json)
# BinomialHeap's scope 5: the runner's executions per CPU-second (see the figure's text).
runner=(--quiet evaluate --benchmark binomial_heap --scopes 5 --out target/speed/binomial_heap --format json)
run generate "${generate[@]}"
run evaluate "${evaluate[@]}"
run runner "${runner[@]}"
load_after=$(awk '{ print $1 ", " $2 ", " $3 }' /proc/loadavg)

export work runs doc mode date commit cores cpu_model load_before load_after
export generate_cmd="FERASTRAU_OPT_LEVEL=0 ferastrau ${generate[*]}"
export evaluate_cmd="FERASTRAU_OPT_LEVEL=0 ferastrau ${evaluate[*]}"
export runner_cmd="FERASTRAU_OPT_LEVEL=0 ferastrau ${runner[*]}"
python3 - <<'EOF'
import json, os, re, statistics, sys

env = os.environ
work, runs = env["work"], int(env["runs"])


def runs_of(name):
    """Each measured run's JSON document and its (wall, CPU) seconds."""
    out = []
    for i in range(1, runs + 1):
        with open(f"{work}/{name}-{i}.json") as f:
            doc = json.load(f)
        t0, t1, c0, c1 = map(float, open(f"{work}/{name}-{i}.time").read().split())
        out.append((doc, t1 - t0, c1 - c0))
    return out


def median(values):
    return statistics.median(values)


def number(v, unit):
    """Three significant digits for seconds and shares, whole numbers for rates."""
    if unit.endswith("/s") or unit.endswith("/CPU-s"):
        return f"{round(v):,d}"
    return f"{v:.3g}"


# (id, unit, command, what it is, value)
figures = []


def figure(id, unit, command, what, values):
    figures.append((id, unit, command, what, number(median(values), unit)))


gen = runs_of("generate")
last = [doc["scopes"][-1] for doc, _, _ in gen]
cmd = env["generate_cmd"]
figure("generate.seconds", "s", cmd,
       f"Korat's search of SearchTree's scope 7 (both methods, {last[0]['inputs']:,} inputs "
       f"from {last[0]['candidates']:,} candidates, counted, not stored), the JSON's `seconds`",
       [s["seconds"] for s in last])
figure("generate.inputs_per_second", "inputs/s", cmd,
       "the same search's valid inputs per second",
       [s["inputs"] / s["seconds"] for s in last])
figure("generate.candidates_per_second", "candidates/s", cmd,
       "the same search's candidates explored per second",
       [s["candidates"] / s["seconds"] for s in last])

ev = runs_of("evaluate")
cmd = env["evaluate_cmd"]
figure("evaluate.wall_seconds", "s", cmd,
       "the whole command, warm: mutants and worker cached, inputs generated, the original and "
       "the limits checked, every mutant run, reports written",
       [wall for _, wall, _ in ev])
figure("evaluate.cpu_seconds", "CPU-s", cmd,
       "the CPU time (user and system) of the command and every process it started",
       [cpu for _, _, cpu in ev])
figure("evaluate.mutant_phase_seconds", "s", cmd,
       "the mutant phase: the JSON's `runner.seconds`",
       [doc["runner"]["seconds"] for doc, _, _ in ev])
figure("evaluate.executions_per_second", "executions/s", cmd,
       "executions of a mutant on an input per second of the mutant phase "
       "(`runner.executions` over `runner.seconds`)",
       [doc["runner"]["executions"] / doc["runner"]["seconds"] for doc, _, _ in ev])
figure("evaluate.reach_skipped", "%", cmd,
       "the share of executions that reach selection skipped: inputs that do not reach the "
       "mutant (`runner.skipped` over `runner.skipped` + `runner.executions`)",
       [100 * doc["runner"]["skipped"] / (doc["runner"]["skipped"] + doc["runner"]["executions"])
        for doc, _, _ in ev])

rn = runs_of("runner")
cmd = env["runner_cmd"]
executions = rn[0][0]["runner"]["executions"]
figure("runner.executions_per_cpu_second", "executions/CPU-s", cmd,
       f"BinomialHeap's scope 5, warm: the mutant phase's {executions:,} executions of a mutant on "
       "an input (`runner.executions`) over the CPU time (user and system) of the whole command "
       "and every process it started; mostly the mutant phase's, so a change that makes each "
       "execution dearer (decoding, the original's run, comparing, bookkeeping) lowers it",
       [doc["runner"]["executions"] / cpu for doc, _, cpu in rn])

machine = (f"{env['date']} (UTC), {env['cores']} cores (`nproc`), {env['cpu_model']} "
           f"(`/proc/cpuinfo`), load average {env['load_before']} before the runs and "
           f"{env['load_after']} after them (1, 5 and 15 minutes, `/proc/loadavg`), at commit "
           f"{env['commit']} (`git describe --always --dirty`)")
print(f"# measured on {machine}; the median of {runs} runs each")
for id, unit, command, _, value in figures:
    print(f"{id}: {value} {unit} ({command})")

BEGIN = "<!-- speed-figures: generated by `bash scripts/speed-figures.sh --write`; CI runs it with --check -->"
END = "<!-- /speed-figures -->"
path = env["doc"]
text = open(path).read()
if text.count(BEGIN) != 1 or text.count(END) != 1:
    sys.exit(f"speed-figures: {path} must hold one line {BEGIN!r} and one {END!r}")
before, rest = text.split(BEGIN + "\n", 1)
block, after = rest.split(END, 1)

ROW = re.compile(r"^\| `([^`]+)` \| [^ |]+ ([^|]+?) \| `([^`]+)` \|")
if env["mode"] == "--check":
    named = {}
    for line in block.splitlines():
        m = ROW.match(line)
        if m:
            named[m.group(1)] = (m.group(2), m.group(3))
    printed = {id: (unit, command) for id, unit, command, _, _ in figures}
    errors = []
    for id, (unit, command) in named.items():
        if id not in printed:
            errors.append(f"{path} names `{id}`, a figure this script no longer prints")
        elif printed[id] != (unit, command):
            errors.append(f"{path} gives `{id}` as {unit!r} of `{command}`; the script prints "
                          f"{printed[id][0]!r} of `{printed[id][1]}`")
    for id in printed:
        if id not in named:
            errors.append(f"{path} lacks `{id}`, which the script prints")
    if errors:
        for e in errors:
            print(f"speed-figures: {e}", file=sys.stderr)
        sys.exit("speed-figures: run `bash scripts/speed-figures.sh --write` and review the diff")
    print(f"speed-figures: {path} names the {len(named)} figures this script prints")
elif env["mode"] == "--write":
    rows = [f"Measured on {machine}, by `bash scripts/speed-figures.sh --write`. Each value is the "
            f"median of {runs} runs, after one run that builds or finds what the command needs. "
            "`ferastrau` is `target/release/ferastrau`, built from the checkout.", "",
            "| figure | value | command | what it is |", "|---|---:|---|---|"]
    for id, unit, command, what, value in figures:
        rows.append(f"| `{id}` | {value} {unit} | `{command}` | {what} |")
    with open(path, "w") as f:
        f.write(before + BEGIN + "\n" + "\n".join(rows) + "\n" + END + after)
    print(f"speed-figures: wrote {len(figures)} figures into {path}")
EOF
