#!/usr/bin/env bash
# One share of a sharded run (a large crate, one CI job per share): evaluates share K of N into
# target/ferastrau/shard-K. When all N are done (their directories gathered in one job), run
# gate-merged.sh. Same environment as gate-main.sh. Usage: gate-shard.sh K N
set -euo pipefail
k=${1:?usage: gate-shard.sh K N}
n=${2:?usage: gate-shard.sh K N}
ferastrau evaluate --benchmark-path "${CRATE:-.}" --scopes "${SCOPES:-1..4}" \
  --shard "$k/$n" --out "target/ferastrau/shard-$k"
