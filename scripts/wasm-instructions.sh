#!/usr/bin/env bash
# wasm-instructions.sh: the machine instructions node executes for one op of
# BenchmarkExecute/mm10 (sim/run) compiled to WebAssembly, at REV and at
# this checkout, counted by Valgrind's cachegrind.
#
# Node's times of the WebAssembly benchmark move far more than native ones
# on this kind of machine: the same binary took 660 ms an op on one core
# and 1,000-1,100 ms on the other, in alternating stretches, while the
# native binary took the same on both (docs/performance.md). A count of
# the instructions that V8's code executes does not move (the same binary
# gave 8,211.0 M and 8,204.7 M), so it tells whether a change made the
# WebAssembly build do less. It is not a time: scripts/wasm-ratio.sh is the
# judge of the issue's ratio, run on a quiet machine and pinned to a core.
#
# Node runs with --no-liftoff --wasm-lazy-compilation: each function is
# compiled once, by the optimizing tier, when first called, so the count
# does not depend on when V8 would have tiered up; --single-threaded keeps
# compilation on the main thread. One op is the count of a process that
# runs the benchmark three times less one that runs it once, halved, so
# start-up, compilation and the testing package's set-up cancel out.
#
# Usage: scripts/wasm-instructions.sh [REV] [BENCH]   (from the repository
#        root; needs valgrind and node; about 3 minutes a tree, the two
#        counts of a tree in parallel). Without REV only this checkout is
#        counted. BENCH is a -test.bench pattern (default
#        'BenchmarkExecute/mm10$'). Both builds use cmd/ressim/default.pgo,
#        as scripts/wasm-ratio.sh and the page's main.wasm do, and both are
#        threaded by internal/wasmjump where the tree has it (THREAD=off:
#        neither).
set -euo pipefail
rev=${1:-}
bench=${2:-'BenchmarkExecute/mm10$'}
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "wasm-instructions.sh: needs valgrind" >&2; exit 2; }
command -v node >/dev/null || { echo "wasm-instructions.sh: needs node" >&2; exit 2; }
exec_js=$(go env GOROOT)/lib/wasm/wasm_exec_node.js
[ -f "$exec_js" ] || exec_js=$(go env GOROOT)/misc/wasm/wasm_exec_node.js
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
trees=(new)
if [ -n "$rev" ]; then
	git worktree add --detach "$work/old" "$rev" >/dev/null 2>&1
	trees=(old new)
fi
for tree in "${trees[@]}"; do
	dir=$work/old
	[ "$tree" = new ] && dir=$PWD
	(cd "$dir" && GOOS=js GOARCH=wasm go test -c -pgo="$dir/cmd/ressim/default.pgo" -o "$work/$tree.test" ./sim/run)
	# Threaded as the page's main.wasm is, where the tree has the pass.
	if [ "${THREAD:-on}" != off ] && [ -d "$dir/internal/wasmjump/cmd/wasmjump" ]; then
		(cd "$dir" && go run ./internal/wasmjump/cmd/wasmjump "$work/$tree.test" "$work/$tree.test")
	fi
	for n in 1 3; do
		(cd "$dir/sim/run" && GOGC=400 valgrind --tool=cachegrind --cache-sim=no --smc-check=all-non-file \
			--cachegrind-out-file=/dev/null node --no-liftoff --wasm-lazy-compilation --single-threaded \
			"$exec_js" "$work/$tree.test" -test.run '^$' -test.bench "$bench" -test.benchtime 1x -test.count $n 2>&1 |
			awk '/I +refs/ { gsub(",", "", $NF); print $NF }' >"$work/$tree-$n") &
	done
	wait
	for n in 1 3; do
		[ -s "$work/$tree-$n" ] || { echo "wasm-instructions.sh: no count for $tree ($n runs)" >&2; exit 1; }
	done
done
python3 - "$work" "${trees[@]}" <<'PY'
import sys
work, trees = sys.argv[1], sys.argv[2:]
per = {}
for t in trees:
    one, three = (int(open(f"{work}/{t}-{n}").read()) for n in (1, 3))
    per[t] = (three - one) / 2
    print(f"{t:4s} {per[t] / 1e6:10.1f} M instructions an op")
if len(per) == 2:
    print(f"new/old {per['new'] / per['old']:.4f}")
PY
