#!/usr/bin/env bash
# Regenerates the committed figures in plots/ from the bundled experiments
# (the list is in plots/plots_test.go, which also checks in every test run
# that they are current). Runs are deterministic, so the figures change only
# when the model, the figures or the experiments do: look at each changed
# figure before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./plots -run TestPlotsAreCurrent -count=1 -update
git status --short plots/
