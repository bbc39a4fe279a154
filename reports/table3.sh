#!/usr/bin/env bash
# Table 3 (random subsets, the paper's Sec. 8.5) and the greedy test-suite reduction for the
# committed benchmarks: each is evaluated again at its largest scope s and at s-1 with
# --kill-matrix (into target/table3/<b>: the matrices are not committed), then
# `ferastrau-paper table3` writes reports/<b>/subsets.{json,csv} (every family and the paper's
# three) and reduced-suite.{json,txt}; then `ferastrau-paper reproduce --render-only` puts every
# benchmark's subsets.json, the paper's line beside it, into REPRODUCTION.md (its Table 3 and the Randomness verdict). Same
# mutant samples as reproduce.sh. (`ferastrau-paper` is ferastrau with the paper's commands.)
# Usage: bash reports/table3.sh [benchmark ...]   (the cost is one pass over every input per
# mutant: BinomialHeap's 2.58 M inputs x 300 mutants dominate)
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A scope=(
  [search_tree]=7 [disj_set]=5 [heap_array]=7 [binomial_heap]=7 [fibonacci_heap]=5
  [linked_list]=7 [sorted_list]=7 [tree_map]=7 [hash_set]=7 [av_tree]=5
)
# AVTree's scope 5 is the costliest matrix: 51 of its 300 sampled mutants time out, most of them
# recursions that reach their tick budget ~10,000 frames deep on nearly every one of 1,193,562
# inputs; its scopes 4..5 took 38 min on 2 cores.
# BinomialHeap's matrix runs with a tick floor of 1,000 instead of 10,000: its 56 timeouts are
# loops, which run their whole budget on nearly every one of 2,577,984 inputs, and the floor is
# nine tenths of that budget. At 1,000 its Table 3 and reduced suite are byte for byte those the
# default floor gave (which took 4,068 s, now 805 s), and the first-kill verdicts of all ten
# benchmarks at every scope are the committed reports' (18,706 mutant-scope pairs).
declare -A limits=([binomial_heap]="--tick-floor 1000")
order=(search_tree disj_set heap_array binomial_heap fibonacci_heap linked_list sorted_list tree_map hash_set av_tree)
cargo build --release -p ferastrau-paper
for b in "${@:-${order[@]}}"; do
  [[ -n "${scope[$b]:-}" ]] || { echo "unknown benchmark: $b" >&2; exit 2; }
  s=${scope[$b]}
  sample=(--max-mutants 300 --seed 1)
  [[ $b == search_tree ]] && sample=()
  read -r -a extra <<< "${limits[$b]:-}"
  echo "== $b, scopes $((s - 1))..$s with the kill matrix"
  ./target/release/ferastrau-paper evaluate --benchmark "$b" --scopes "$((s - 1))..$s" "${sample[@]}" \
    ${extra[@]+"${extra[@]}"} --kill-matrix --out "target/table3/$b"
  ./target/release/ferastrau-paper table3 "target/table3/$b" --random-samples 1000 --seed 1 \
    --paper reports/paper/table3.csv > /dev/null
  for f in subsets.json subsets.csv reduced-suite.json reduced-suite.txt; do
    cp "target/table3/$b/$f" "reports/$b/$f"
  done
done
# Every benchmark's table3.json, the ones not re-run included, into REPRODUCTION.md.
./target/release/ferastrau-paper reproduce --out reports --render-only > /dev/null
