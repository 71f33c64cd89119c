#!/usr/bin/env bash
# Regenerates the committed figures in plots/ from the bundled experiments
# (the list is in plots/plots_test.go, which also checks in every test run
# that they are current). Runs are deterministic, so the figures change only
# when the model, the figures or the experiments do: look at each changed
# figure before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./plots -run TestPlotsAreCurrent -count=1 -update
# Alerting rules on simulated incidents (docs/observability.md; needs
# promtool, from Debian's prometheus package).
go run ./cmd/ressim alerts experiments/alerts/degraded-200.toml --rules experiments/alerts/degraded-200.rules.yml \
  --figure plots/alerts-degraded-200.png >/dev/null
go run ./cmd/ressim alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml \
  --figure plots/alerts-retry-storm.png >/dev/null
go run ./cmd/ressim alerts experiments/metastable-retry-storm.toml --rules experiments/alerts/retry-storm.rules.yml \
  --variant retry-budget --replication 0 --figure plots/alerts-retry-storm-budget.png >/dev/null
git status --short plots/
