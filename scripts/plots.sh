#!/usr/bin/env bash
# Regenerates the committed figures in plots/ from the bundled experiments.
# Runs are deterministic, so the figures change only when the model or the
# experiments do.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/ressim" ./cmd/ressim
for f in experiments/*.toml; do
  exp=$(basename "$f" .toml)
  [ "$exp" = mm10 ] && continue
  "$work/ressim" run "experiments/$exp.toml" -o "$work/$exp" >/dev/null
  cp "$work/$exp/overview.png" "plots/$exp.png"
done
echo "plots/ updated"
