#!/usr/bin/env bash
# The gate of a pull request: what its diff against BASE (the target branch, e.g.
# origin/main) can affect — every mutant of the mutated functions it changes, every mutant if
# it changes the specification side, nothing if it changes nothing the verdicts depend on —
# against the baseline committed on the target branch. Same exits and environment as
# gate-main.sh. Usage: gate-pr.sh BASE [gate's options...]
set -euo pipefail
base=${1:?usage: gate-pr.sh BASE (the branch the pull request goes into)}
shift
mkdir -p target/ferastrau
git diff "$base"...HEAD >target/ferastrau/pr.diff
ferastrau gate --baseline "${BASELINE:-ferastrau-baseline.json}" \
  --benchmark-path "${CRATE:-.}" --scopes "${SCOPES:-1..4}" \
  --in-diff target/ferastrau/pr.diff \
  --out target/ferastrau/gate-pr --format "${FORMAT:-table}" "$@"
