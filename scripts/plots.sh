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
  case "$exp" in mm10|metastable-phase|goodput-vs-load) continue ;; esac
  "$work/ressim" run "experiments/$exp.toml" -o "$work/$exp" >/dev/null
  cp "$work/$exp/overview.png" "plots/$exp.png"
done
# The service timeline shows what the overview cannot: expired requests
# holding queue places.
cp "$work/abandonment/timeline-api.png" plots/abandonment-timeline.png
# The committed comparison and phase diagrams.
"$work/ressim" compare experiments/metastable-retry-storm.toml -o "$work/storm-compare" >/dev/null
cp "$work/storm-compare/compare-timeline.png" plots/metastable-retry-storm-compare.png
cp "$work/storm-compare/bars-goodput.png" plots/metastable-retry-storm-goodput.png
cp "$work/storm-compare/compare.md" plots/metastable-retry-storm-compare.md
"$work/ressim" sweep experiments/metastable-phase.toml -o "$work/phase" >/dev/null
cp "$work/phase/phase-base.png" plots/metastable-phase.png
cp "$work/phase/sweep.md" plots/metastable-phase.md
"$work/ressim" sweep experiments/goodput-vs-load.toml -o "$work/gvl" >/dev/null
cp "$work/gvl/sweep-goodput.png" plots/goodput-vs-load.png
"$work/ressim" compare experiments/brooker-spike.toml -o "$work/brooker" >/dev/null
cp "$work/brooker/compare-timeline.png" plots/brooker-spike-compare.png
cp "$work/brooker/compare.md" plots/brooker-spike-compare.md
# Alerting rules on simulated incidents (docs/observability.md).
"$work/ressim" alerts experiments/alerts/degraded-200.toml --rules experiments/alerts/degraded-200.rules.yml \
  --figure plots/alerts-degraded-200.png >/dev/null
"$work/ressim" alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml \
  --figure plots/alerts-retry-storm.png >/dev/null
"$work/ressim" alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml \
  --variant retry-budget --replication 0 --figure plots/alerts-retry-storm-budget.png >/dev/null
echo "plots/ updated"
