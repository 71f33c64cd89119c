#!/bin/bash
# Submits N shards as a Slurm job array and the merge after them.
#   deploy/slurm/submit.sh experiments/metastable-phase.toml 16 /shared/phase
# KIND=compare for a comparison; RESSIM=/path/to/ressim if not on PATH.
# The array is 0-(N-1) because each task's id is its shard: if task 2
# fails, resubmit it alone with the same environment,
#   sbatch --array=2 --export=ALL,FILE=...,N=...,PARTS=... shard.sbatch
# and then merge.sbatch (the first merge never starts: afterok failed).
set -euo pipefail
FILE=$1 N=$2 BASE=$3
export FILE N PARTS="$BASE/parts" OUT="$BASE/out" KIND="${KIND:-sweep}" RESSIM="${RESSIM:-ressim}"
mkdir -p "$PARTS"
here=$(dirname "$0")
array=$(sbatch --parsable --array="0-$((N - 1))" --export=ALL "$here/shard.sbatch")
sbatch --parsable --dependency="afterok:${array%%;*}" --export=ALL "$here/merge.sbatch"
