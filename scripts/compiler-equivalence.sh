#!/usr/bin/env bash
# Trivial compiler equivalence on the ten benchmarks (docs/src/compiler-equivalence.md):
# evaluates each at scopes 1..3 with its kill matrix (opt-level 3, the default), then checks
# every compiler verdict against the matrices (no marked mutant killed by any input) and
# writes the table between the markers of the book's page.
#
#   bash scripts/compiler-equivalence.sh            # runs into target/tce/, then the table
#   bash scripts/compiler-equivalence.sh --table    # the table only, from earlier runs
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${FERASTRAU_TCE_RUNS:-$root/target/tce}
page=docs/src/compiler-equivalence.md
benchmarks=(search_tree sorted_list linked_list heap_array disj_set binomial_heap fibonacci_heap hash_set tree_map av_tree)

if [[ "${1:-}" != "--table" ]]; then
  cargo build --release -p ferastrau --quiet
  mkdir -p "$runs"
  for b in "${benchmarks[@]}"; do
    start=$(date +%s)
    # --verbose: its `comparison:` line says how long the comparison's compile took (none when
    # the metamutant, and so its comparison, came from the cache).
    target/release/ferastrau evaluate --benchmark "$b" --scopes 1..3 --kill-matrix \
      --out "$runs/$b" --verbose > /dev/null 2> "$runs/$b.log"
    echo "$b: $(( $(date +%s) - start )) s" >&2
  done
  # The comparison's cost per benchmark, from those logs, with the machine: for the page.
  {
    echo "Measured on $(date -u +%Y-%m-%d) (UTC), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs, at commit $(git describe --always --dirty), opt-level ${FERASTRAU_OPT_LEVEL:-3} for the workers:"
    echo
    for b in "${benchmarks[@]}"; do
      mutants=$(grep -o 'Compared [0-9]* mutants' "$runs/$b.log" | grep -o '[0-9]*' || echo '?')
      how=$(grep -o 'comparison: compiled .*' "$runs/$b.log" || echo 'comparison: cached (nothing compiled)')
      echo "- $b ($mutants mutants compared): ${how#comparison: }"
    done
  } > "$runs/costs.md"
fi

# put NAME TEXT WHAT: TEXT into the page between the markers of NAME ("table", "costs"), whose
# opening one says the script "writes WHAT" ("it", "them"); a page without it is an error.
put() {
  local begin="<!-- $1: scripts/compiler-equivalence.sh writes $3 -->" end="<!-- end of $1 -->"
  grep -qxF "$begin" "$page" || { echo "compiler-equivalence: $page has no $begin" >&2; exit 1; }
  awk -v begin="$begin" -v end="$end" -v text="$2" '
    $0 == begin { print; print text; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }
  ' "$page" > "$page.tmp" && mv "$page.tmp" "$page"
  echo "$2"
}

table=$(FERASTRAU_TCE_RUNS="$runs" cargo test --release -p ferastrau --test integration --quiet -- \
  --ignored --exact matrix::compiler_verdicts_agree_with_the_ten_benchmarks_kill_matrices \
  --nocapture 2>/dev/null | grep '^|')
put table "$table" it
# The costs, when a run measured them (with --table: the last run's).
if [[ -f "$runs/costs.md" ]]; then
  put costs "$(cat "$runs/costs.md")" them
fi
