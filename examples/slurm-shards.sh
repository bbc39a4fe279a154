#!/usr/bin/env bash
# A sharded ferastrau run as a Slurm job array: task i evaluates share i+1 of N into its own
# directory on the shared file system (every task regenerates the inputs itself).
#   sbatch --array=0-7 examples/slurm-shards.sh            # N = 8 shards
#   sbatch --dependency=afterok:<array job id> --wrap \
#     'ferastrau merge runs/shard-* --out runs/merged && ferastrau gate --baseline ferastrau-baseline.json --current runs/merged'
# Build ferastrau and the benchmark's worker once before (one `ferastrau evaluate --scopes 1`
# run), so that the tasks do not all build them at the same time.
#SBATCH --job-name=ferastrau
#SBATCH --cpus-per-task=4
#SBATCH --mem=8G
#SBATCH --time=02:00:00
set -euo pipefail

N=${SLURM_ARRAY_TASK_COUNT:?submit as an array: sbatch --array=0-7 $0}
K=$((SLURM_ARRAY_TASK_ID + 1))
ferastrau evaluate --benchmark-path . --scopes 1..7 --max-mutants 300 --seed 1 \
  --jobs "$SLURM_CPUS_PER_TASK" --shard "$K/$N" --out "runs/shard-$K"
