#!/usr/bin/env bash
# The full gate, on the main branch: every mutant of the crate against the committed baseline.
# Exit 0: as strong as the baseline; 3: weaker (each regression printed, and annotated with
# --format github, or in a Code Quality report with --format gitlab); 4: a broken run. Run
# from the repository's root. Options given are the gate's.
# Environment: CRATE (the crate's directory, default .), SCOPES (default 1..4), BASELINE
# (default ferastrau-baseline.json), FORMAT (default table; github in a GitHub workflow,
# gitlab in a GitLab job).
set -euo pipefail
ferastrau gate --baseline "${BASELINE:-ferastrau-baseline.json}" \
  --benchmark-path "${CRATE:-.}" --scopes "${SCOPES:-1..4}" \
  --out target/ferastrau/gate --format "${FORMAT:-table}" "$@"
