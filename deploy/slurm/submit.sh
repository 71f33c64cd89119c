#!/bin/bash
# Submits N shards as a Slurm job array and the merge after them.
#   deploy/slurm/submit.sh experiments/metastable-phase.toml 16 /shared/phase
# KIND=compare for a comparison; RESSIM=/path/to/ressim if not on PATH.
set -euo pipefail
FILE=$1 N=$2 BASE=$3
export FILE N PARTS="$BASE/parts" OUT="$BASE/out" KIND="${KIND:-sweep}" RESSIM="${RESSIM:-ressim}"
mkdir -p "$PARTS"
here=$(dirname "$0")
array=$(sbatch --parsable --array="0-$((N - 1))" --export=ALL "$here/shard.sbatch")
sbatch --parsable --dependency="afterok:${array%%;*}" --export=ALL "$here/merge.sbatch"
