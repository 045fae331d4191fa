#!/bin/bash
# Submits a cara sweep to Slurm: N array tasks, one shard each, then a merge job that waits for
# all of them. Run it from the folder the results should go under.
#   deploy/slurm/submit.sh covcon-d 5 5              # scenario, seeds, shards
#   EXTRA="--trees 10 --costs 0.5:40:6" deploy/slurm/submit.sh covcon-d 8 4
# It also writes results/SCENARIO-resubmit.sh, which runs tasks again with the very same settings
# (EXTRA included) and then the merge: results/covcon-d-resubmit.sh 3
set -euo pipefail

scenario=${1:-covcon-d} seeds=${2:-5} shards=${3:-$seeds}
here=$(cd "$(dirname "$0")" && pwd)
export SCENARIO=$scenario SEEDS=$seeds SHARDS=$shards OUT=${OUT:-$PWD/results} EXTRA=${EXTRA:-}
if ((shards > seeds)); then
  echo "note: $shards shards for $seeds seeds: some seeds' matrices are computed in several shards;" \
    "with at most $seeds shards each matrix is computed once" >&2
fi
mkdir -p "$OUT"
# The settings travel in the environment (--export=ALL), not in --export's list, which would
# split a value at its commas (EXTRA="--set 'schedules=[{at: [40, 60]}]'").
resubmit="$OUT/$SCENARIO-resubmit.sh"
{
  echo '#!/bin/bash'
  echo "# Runs tasks of the sweep submitted on $(date -u +%Y-%m-%dT%H:%MZ) again (each resumes its file), then the merge."
  echo "# Usage: $resubmit TASK [TASK...]     (the task numbers, 1 to $shards, that failed or hit their time limit)"
  echo 'set -euo pipefail'
  echo '[[ $# -gt 0 ]] || { sed -n 3p "$0"; exit 2; }'
  printf 'export SCENARIO=%q SEEDS=%q SHARDS=%q OUT=%q EXTRA=%q CARA=%q\n' "$SCENARIO" "$SEEDS" "$SHARDS" "$OUT" "$EXTRA" "${CARA:-cara}"
  printf 'tasks=$(IFS=,; echo "$*")\n'
  printf 'sweep=$(sbatch --parsable --array="$tasks" --export=ALL %q)\n' "$here/sweep.sbatch"
  printf 'sbatch --parsable --dependency="afterany:$sweep" --export=ALL %q\n' "$here/merge.sbatch"
} > "$resubmit"
chmod +x "$resubmit"
sweep=$(sbatch --parsable --array="1-$shards" --export=ALL "$here/sweep.sbatch")
merge=$(sbatch --parsable --dependency="afterany:$sweep" --export=ALL "$here/merge.sbatch")
echo "sweep: job $sweep ($shards tasks); merge: job $merge, after it; results in $OUT"
echo "a task that fails or reaches its time limit: $resubmit TASK (it resumes, then merges again)"
