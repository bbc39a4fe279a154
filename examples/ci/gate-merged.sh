#!/usr/bin/env bash
# Merges every share in target/ferastrau/shard-* (refused if one is missing, twice, or of
# another run) and gates the whole run against the baseline. Same exits and environment as
# gate-main.sh.
set -euo pipefail
ferastrau merge target/ferastrau/shard-* --out target/ferastrau/merged
ferastrau gate --baseline "${BASELINE:-ferastrau-baseline.json}" \
  --current target/ferastrau/merged --benchmark-path "${CRATE:-.}" \
  --format "${FORMAT:-table}"
