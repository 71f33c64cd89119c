#!/bin/bash
# N shards on one big machine (J at a time) or on SSH hosts, then the merge.
#   deploy/local/shards.sh FILE N J PARTS OUT
# The core of it is a one-liner:
#   seq 0 $((N-1)) | xargs -P J -I{} ressim sweep FILE --shard {}/N -j 1 -o PARTS
#   ressim merge -o OUT PARTS
# With GNU parallel over SSH hosts (a shared PARTS folder, e.g. NFS):
#   parallel -S host1,host2 ressim sweep FILE --shard {}/N -o PARTS ::: $(seq 0 $((N-1)))
# KIND=compare for a comparison; RESSIM=/path/to/ressim if not on PATH.
set -euo pipefail
FILE=$1 N=$2 J=$3 PARTS=$4 OUT=$5
R=${RESSIM:-ressim} K=${KIND:-sweep}
seq 0 $((N - 1)) | xargs -P "$J" -I{} "$R" "$K" "$FILE" --shard "{}/$N" -j 1 -o "$PARTS" >/dev/null
"$R" merge -o "$OUT" "$PARTS"
