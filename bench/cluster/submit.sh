#!/usr/bin/env bash
# Submits one search split over N Slurm array tasks and the merge that follows it.
# Usage: bench/cluster/submit.sh N [sbatch options...]    (env as in explore-array.sbatch)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
n=${1:?usage: submit.sh N [sbatch options...]}
shift
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a positive integer, not '$n'" >&2; exit 2; }
array=$(sbatch --parsable --export=ALL --array="0-$((n - 1))" "$@" "$here/explore-array.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" "$@" "$here/merge.sbatch")
echo "array job $array ($n tasks), merge job $merge after it"
