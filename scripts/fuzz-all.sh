#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a fixed time and records the
# executions each one reached, for the closing notes and docs/security.md.
#
#   scripts/fuzz-all.sh [-t 10m] [-c 4] [-o fuzz.log] [TARGET_REGEXP]
#
# -t  time per target (go test -fuzztime), default 10m
# -c  targets run at once, each with -parallel 1, default 2
# -o  log file (one line per target: package, target, status, last progress line)
#
# Targets run under `nice -n 19`, so a developer's builds keep priority. A
# finding is written by go test into the package's testdata/fuzz and makes the
# target's status FAIL; commit that file as a regression seed after fixing it.
# A non-zero exit that wrote no input is a race in Go's fuzzing coordinator at
# the end of -fuzztime ("context deadline exceeded", go.dev/issue/75804, fixed
# in Go 1.27) and is logged as "flake", with the executions reached.
set -uo pipefail
cd "$(dirname "$0")/.."
fuzztime=10m conc=2 log=fuzz.log
while getopts "t:c:o:" opt; do
  case $opt in
    t) fuzztime=$OPTARG ;;
    c) conc=$OPTARG ;;
    o) log=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
filter=${1:-.}

# One "package target" pair a line, in a fixed order.
targets=$(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . |
  grep -v '^./deploy/' |
  sed -E 's#^\./(.*)/[^/]+_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#./\1 \2#' |
  sort | grep -E "$filter")

: >"$log"
run_one() {
  local pkg=$1 name=$2 out
  local corpus="$pkg/testdata/fuzz/$name" before after
  out=$(mktemp)
  before=$(ls "$corpus" 2>/dev/null | wc -l)
  # -timeout above -fuzztime: go test's default of 10m would end a 10m run.
  if nice -n 19 go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" \
    -timeout 60m -parallel 1 >"$out" 2>&1; then
    status=ok
  else
    after=$(ls "$corpus" 2>/dev/null | wc -l)
    status=FAIL
    if [ "$after" = "$before" ] && grep -q 'context deadline exceeded' "$out"; then status=flake; fi
  fi
  last=$(grep -E 'fuzz: elapsed' "$out" | tail -1)
  printf '%s %s %s %s\n' "$pkg" "$name" "$status" "$last" >>"$log"
  if [ "$status" = FAIL ]; then cp "$out" "$log.$name.fail"; fi
  rm -f "$out"
}
export -f run_one
export fuzztime log
printf '%s\n' "$targets" | xargs -P "$conc" -L 1 bash -c 'run_one "$0" "$1"'
echo "$(grep -c ' ok ' "$log") ok, $(grep -c ' flake ' "$log") flaked, $(grep -c ' FAIL ' "$log") failed: $log"
