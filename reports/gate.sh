#!/usr/bin/env bash
# Gates every benchmark at scopes 1..3 against the committed baseline (what CI runs): fails,
# with exit status 3, when a kill rate falls, a mutant the baseline killed survives, or code
# coverage drops; with 4 when a run is broken.
# Usage: bash reports/gate.sh [--update-baseline] — the option rewrites the baseline on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

# CI sets FERASTRAU_PREBUILT=1 right after `cargo test --workspace --release`, which has just built
# target/release/ferastrau from this checkout: `cargo build -p ferastrau` would build it again
# (about a minute), since a build of one package unifies its dependencies' features differently.
[[ ${FERASTRAU_PREBUILT:-} == 1 ]] || cargo build --release -p ferastrau
for dir in benchmarks/*/; do
  b=$(basename "$dir")
  ./target/release/ferastrau gate --baseline reports/gate-baseline.json \
    --benchmark "$b" --scopes 1..3 --out "target/gate/$b" "$@"
done
