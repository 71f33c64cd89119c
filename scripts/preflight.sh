#!/usr/bin/env bash
# Pre-flight check for a workshop laptop, from the repository's root or
# anywhere inside it: Go version, build, one short run, a plot written as a
# PNG, and (optional) the Python modules the notebooks use, asked of the
# interpreter Jupyter's python3 kernel runs (not the first python3 on the
# PATH, which may be another one). Under a minute.
# Exit status 0 when the laptop can run the workshop (the Python part only
# warns: the workshop works without notebooks). Windows: run it in Git Bash
# or WSL, or follow the manual steps in notebooks/README.md.
#
#   scripts/preflight.sh                # everything
#   scripts/preflight.sh --python-only  # only the notebooks' Python (seconds)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
fail=0
ok() { printf '  ok    %s\n' "$*"; }
bad() { printf '  FAIL  %s\n' "$*"; fail=1; }
warn() { printf '  warn  %s\n' "$*"; }
start=$SECONDS

# kernel_python prints the interpreter Jupyter starts for the python3
# kernel the labs name: argv[0] of `jupyter kernelspec list --json`'s
# python3 entry. A bare "python"/"python3" there means Jupyter's own
# interpreter (jupyter_client substitutes sys.executable), read from the
# jupyter script's #! line. Prints nothing when there is no python3 kernel.
kernel_python() {
  local json argv0 parse
  json=$(jupyter kernelspec list --json 2>/dev/null) || return 0
  parse=$(command -v python3 || command -v python || true)
  [ -n "$parse" ] || parse=$(jupyter_python)
  [ -n "$parse" ] || return 0
  argv0=$(printf '%s' "$json" | "$parse" -c 'import json, sys
s = json.load(sys.stdin)["kernelspecs"].get("python3")
print(s["spec"]["argv"][0] if s else "")' 2>/dev/null) || return 0
  case "$argv0" in
  python | python3 | python3.*) jupyter_python || command -v "$argv0" ;;
  *) printf '%s\n' "$argv0" ;;
  esac
}

# jupyter_python prints the interpreter of the jupyter command itself, from
# its #! line (nothing if it is not a script).
jupyter_python() {
  local line
  IFS= read -r line <"$(command -v jupyter)" 2>/dev/null || return 0
  line=${line#\#!}
  [ "$line" != "${line#/}" ] && printf '%s\n' "${line%% *}"
}

python_check() {
  local py kpy m
  py=$(command -v python3 || command -v python || true)
  if ! command -v jupyter >/dev/null 2>&1; then
    warn "jupyter missing (optional: open the notebooks in VS Code or another tool instead)"
    if [ -z "$py" ]; then
      warn "no python3: fine for the workshop; the notebooks (notebooks/labs) need Python 3 with pandas and matplotlib"
      return
    fi
    for m in pandas matplotlib ipykernel; do
      if "$py" -c "import $m" 2>/dev/null; then ok "python module $m ($py, the python3 on PATH: without Jupyter, the one your editor likely runs)"; else warn "python module $m missing in $py, the python3 on PATH (optional, for the notebooks): $py -m pip install $m"; fi
    done
    return
  fi
  ok "jupyter"
  kpy=$(kernel_python)
  if [ -z "$kpy" ]; then
    warn "Jupyter has no python3 kernel (jupyter kernelspec list): install one with python3 -m pip install ipykernel && python3 -m ipykernel install --user, from the Python that has pandas and matplotlib"
    return
  fi
  if ! "$kpy" -c "" 2>/dev/null; then
    warn "Jupyter's python3 kernel runs $kpy, which does not start (jupyter kernelspec list shows where its kernel.json is): reinstall the kernel with python3 -m ipykernel install --user"
    return
  fi
  ok "Jupyter's python3 kernel runs $kpy"
  for m in pandas matplotlib ipykernel; do
    if "$kpy" -c "import $m" 2>/dev/null; then
      ok "python module $m (in the kernel's $kpy)"
    else
      warn "python module $m missing in the kernel's $kpy (optional, for the notebooks): $kpy -m pip install $m, or point the kernel at a Python that has it (that-python -m ipykernel install --user)"
    fi
  done
  if [ -n "$py" ] && [ "$(cd / && "$py" -c 'import sys; print(sys.executable)' 2>/dev/null)" != "$(cd / && "$kpy" -c 'import sys; print(sys.executable)' 2>/dev/null)" ]; then
    printf '  note  the python3 on PATH (%s) is not the kernel'"'"'s; the notebooks run in the kernel, so its modules are the ones that count\n' "$py"
  fi
}

if [ "${1:-}" = "--python-only" ]; then
  echo "ressim workshop pre-flight: the notebooks' Python"
  python_check
  echo "done in $((SECONDS - start)) s"
  exit 0
fi

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

python_check

echo "done in $((SECONDS - start)) s: $([ $fail = 0 ] && echo 'this laptop is ready' || echo 'fix the FAIL lines above')"
exit $fail
