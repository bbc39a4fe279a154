#!/usr/bin/env bash
# Regenerates every committed report with `ferastrau-paper reproduce` (ferastrau with the paper's
# commands, harness/paper/): each benchmark at the paper's scopes (reports/paper/table4.csv), the
# survivors of its largest scope again at scope + 1, then
# Tables 1, 2 and 4, figure9.svg and REPRODUCTION.md. SearchTree runs every viable mutant
# (its manifest's `reproduce-all-mutants`), the others a seeded, family-stratified sample of at
# most 300 (the paper used 200–300). docs/src/reproduction.md says what it writes; the seconds of
# each benchmark's generation and checking are in REPRODUCTION.md's Tables 2 and 4. Usage: bash reports/reproduce.sh [benchmark ...] [-- reproduce's options, e.g. --resume]
set -euo pipefail
cd "$(dirname "$0")/.."

names=()
while [[ $# -gt 0 && $1 != -- ]]; do names+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
cargo build --release -p ferastrau-paper
only=()
if [[ ${#names[@]} -gt 0 ]]; then only=(--benchmarks "$(IFS=,; echo "${names[*]}")"); fi
./target/release/ferastrau-paper reproduce --out reports "${only[@]}" "$@"
