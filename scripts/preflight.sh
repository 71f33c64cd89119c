#!/usr/bin/env bash
# Pre-flight check for a workshop laptop, from the repository's root or
# anywhere inside it: Go version, build, one short run, a plot written as a
# PNG, and (optional) the Python modules the notebooks use. Under a minute.
# Exit status 0 when the laptop can run the workshop (the Python part only
# warns: the workshop works without notebooks). Windows: run it in Git Bash
# or WSL, or follow the manual steps in notebooks/README.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
fail=0
ok() { printf '  ok    %s\n' "$*"; }
bad() { printf '  FAIL  %s\n' "$*"; fail=1; }
warn() { printf '  warn  %s\n' "$*"; }
start=$SECONDS

echo "ressim workshop pre-flight"
if ! command -v go >/dev/null 2>&1; then
  bad "go not found on PATH: install Go 1.26 or later from https://go.dev/dl/"
  exit 1
fi
v=$(go env GOVERSION)
if [[ "$v" =~ ^go1\.([0-9]+) ]] && (( BASH_REMATCH[1] >= 26 )); then
  ok "Go $v"
else
  bad "Go $v: the workshop needs Go 1.26 or later (GOTOOLCHAIN=auto fetches it if the module proxy is reachable)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if go build -o "$work/ressim" ./cmd/ressim 2>"$work/build.log"; then
  ok "go build ./cmd/ressim"
else
  bad "go build failed:"; sed 's/^/        /' "$work/build.log"; exit 1
fi

if "$work/ressim" run experiments/retry-amplification.toml -o "$work/run" >"$work/run.log" 2>&1 &&
  grep -q '"amplification": 27' "$work/run/summary.json"; then
  ok "one short run (retry-amplification: the database's amplification is 27)"
else
  bad "ressim run failed or gave an unexpected result:"; sed 's/^/        /' "$work/run.log"
fi
if [ "$(head -c 4 "$work/run/overview.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ]; then
  ok "plotting wrote overview.png"
else
  bad "no PNG written: plotting does not work on this machine"
fi

py=$(command -v python3 || command -v python || true)
if [ -z "$py" ]; then
  warn "no python3: fine for the workshop; the notebooks (notebooks/labs) need Python 3 with pandas and matplotlib"
else
  for m in pandas matplotlib nbformat ipykernel; do
    if "$py" -c "import $m" 2>/dev/null; then ok "python module $m ($py)"; else warn "python module $m missing (optional, for the notebooks)"; fi
  done
  command -v jupyter >/dev/null 2>&1 && ok "jupyter" || warn "jupyter missing (optional: open the notebooks in VS Code or another tool instead)"
fi

echo "done in $((SECONDS - start)) s: $([ $fail = 0 ] && echo 'this laptop is ready' || echo 'fix the FAIL lines above')"
exit $fail
