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
  for b in "${benchmarks[@]}"; do
    start=$(date +%s)
    target/release/ferastrau evaluate --benchmark "$b" --scopes 1..3 --kill-matrix \
      --out "$runs/$b" --quiet > /dev/null
    echo "$b: $(( $(date +%s) - start )) s" >&2
  done
fi

table=$(FERASTRAU_TCE_RUNS="$runs" cargo test --release -p ferastrau --test integration --quiet -- \
  --ignored --exact matrix::compiler_verdicts_agree_with_the_ten_benchmarks_kill_matrices \
  --nocapture 2>/dev/null | grep '^|')
begin='<!-- table: scripts/compiler-equivalence.sh writes it -->'
end='<!-- end of table -->'
awk -v begin="$begin" -v end="$end" -v table="$table" '
  $0 == begin { print; print table; skip = 1; next }
  $0 == end { skip = 0 }
  !skip { print }
' "$page" > "$page.tmp" && mv "$page.tmp" "$page"
echo "$table"
