#!/bin/bash
# Submits a cara sweep to Slurm: N array tasks, one shard each, then a merge job that waits for
# all of them. Run it from the folder the results should go under.
#   deploy/slurm/submit.sh covcon-d 5 5              # scenario, seeds, shards
#   EXTRA="--trees 10 --costs 0.5:40:6" deploy/slurm/submit.sh covcon-d 8 4
set -euo pipefail

scenario=${1:-covcon-d} seeds=${2:-5} shards=${3:-$seeds}
here=$(cd "$(dirname "$0")" && pwd)
export SCENARIO=$scenario SEEDS=$seeds SHARDS=$shards OUT=${OUT:-$PWD/results} EXTRA=${EXTRA:-}
if ((shards > seeds)); then
  echo "note: $shards shards for $seeds seeds: some seeds' matrices are computed in several shards;" \
    "with at most $seeds shards each matrix is computed once" >&2
fi
sweep=$(sbatch --parsable --array="1-$shards" --export=ALL "$here/sweep.sbatch")
merge=$(sbatch --parsable --dependency="afterany:$sweep" --export=ALL "$here/merge.sbatch")
echo "sweep: job $sweep ($shards tasks); merge: job $merge, after it; results in $OUT"
