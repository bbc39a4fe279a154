#!/usr/bin/env bash
# Regenerates every committed report: each benchmark at the paper's largest scope (Table 4).
# SearchTree runs every viable mutant (the README's main command); the others a seeded,
# family-stratified sample of at most 300 (the paper used 200–300 per benchmark).
# About 20 minutes on 2 cores. Usage: bash reports/reproduce.sh [benchmark ...]
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A scope=(
  [search_tree]=7 [disj_set]=5 [heap_array]=7 [binomial_heap]=7 [fibonacci_heap]=5
  [linked_list]=7 [sorted_list]=7 [tree_map]=7 [hash_set]=7 [av_tree]=5
)
cargo build --release -p ferastrau
for b in "${@:-${!scope[@]}}"; do
  [[ -n "${scope[$b]:-}" ]] || { echo "unknown benchmark: $b" >&2; exit 2; }
  sample=(--max-mutants 300 --seed 1)
  [[ $b == search_tree ]] && sample=()
  echo "== $b, scopes 1..${scope[$b]}"
  ./target/release/ferastrau evaluate --benchmark "$b" --scopes "1..${scope[$b]}" "${sample[@]}" \
    --out "reports/$b"
done
