#!/usr/bin/env bash
# Table 3 (random subsets, the paper's Sec. 8.5) and the greedy test-suite reduction for the
# committed benchmarks: each is evaluated again at its largest scope s and at s-1 with
# --kill-matrix (into target/table3/<b>: the matrices are not committed), then
# `ferastrau subsets` writes reports/<b>/table3.{json,csv} and reduced-suite.{json,txt}, and
# all of them together reports/TABLE3.md. Same mutant samples as reproduce.sh.
# Usage: bash reports/table3.sh [benchmark ...]   (the cost is one pass over every input per
# mutant: BinomialHeap's 2.58 M inputs x 300 mutants dominate)
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A scope=(
  [search_tree]=7 [disj_set]=5 [heap_array]=7 [binomial_heap]=7 [fibonacci_heap]=5
  [linked_list]=7 [sorted_list]=7 [tree_map]=7 [hash_set]=7 [av_tree]=5
)
order=(search_tree disj_set heap_array binomial_heap fibonacci_heap linked_list sorted_list tree_map hash_set av_tree)
cargo build --release -p ferastrau
for b in "${@:-${order[@]}}"; do
  [[ -n "${scope[$b]:-}" ]] || { echo "unknown benchmark: $b" >&2; exit 2; }
  s=${scope[$b]}
  sample=(--max-mutants 300 --seed 1)
  [[ $b == search_tree ]] && sample=()
  echo "== $b, scopes $((s - 1))..$s with the kill matrix"
  ./target/release/ferastrau evaluate --benchmark "$b" --scopes "$((s - 1))..$s" "${sample[@]}" \
    --kill-matrix --out "target/table3/$b"
  ./target/release/ferastrau subsets "target/table3/$b" --random-samples 1000 --seed 1 \
    --paper reports/paper/table3.csv > /dev/null
  for f in table3.json table3.csv reduced-suite.json reduced-suite.txt; do
    cp "target/table3/$b/$f" "reports/$b/$f"
  done
done
# The combined table, over every benchmark with a matrix (in the paper's order).
dirs=()
for b in "${order[@]}"; do
  [[ -d "target/table3/$b/kill-matrix" ]] && dirs+=("target/table3/$b")
done
./target/release/ferastrau subsets "${dirs[@]}" --random-samples 1000 --seed 1 \
  --paper reports/paper/table3.csv --no-render --markdown reports/TABLE3.md > /dev/null
