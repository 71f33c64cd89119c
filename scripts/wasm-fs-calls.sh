#!/usr/bin/env bash
# wasm-fs-calls.sh: the file-system calls one op of a benchmark makes when
# sim/run's tests are compiled to WebAssembly and run in node, by call, with
# the time node took to answer them.
#
# Go's WebAssembly reaches the file system through JavaScript: each call is
# an asynchronous node fs call whose callback resumes Go, a round trip
# through libuv's thread pool that cost 0.3-1.9 ms a call on this kind of
# machine, against microseconds for the system call natively
# (docs/performance.md, tenth pass). The count is exact and does not move
# between runs; the times do.
#
# One op is the calls of a process that runs the benchmark 3 times (one
# b.Loop, into one folder) less one that runs it once, halved: start-up,
# the testing package's set-up and the first op, which has no earlier set
# to replace, cancel out. Node's fs is wrapped (every asynchronous function
# counts its calls and times its callbacks) in a copy of Go's
# wasm_exec_node.js; nothing else changes.
#
# Usage: scripts/wasm-fs-calls.sh [BENCH]   (from the repository root;
#        needs node; BENCH a -test.bench pattern, default
#        'BenchmarkExecute/mm10$').
set -euo pipefail
bench=${1:-'BenchmarkExecute/mm10$'}
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "wasm-fs-calls.sh: needs node" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=$(go env GOROOT)/lib/wasm
[ -f "$lib/wasm_exec_node.js" ] || lib=$(go env GOROOT)/misc/wasm
cp "$lib/wasm_exec.js" "$work/"
python3 - "$lib/wasm_exec_node.js" "$work/exec.js" <<'PY'
import sys
src = open(sys.argv[1]).read()
wrap = '''globalThis.fs = require("fs");
const counts = {};
const real = globalThis.fs;
const wrapped = Object.create(real);
for (const k of Object.keys(real)) {
	if (typeof real[k] !== "function" || k.endsWith("Sync")) continue;
	wrapped[k] = function (...args) {
		const t0 = performance.now();
		const cb = args[args.length - 1];
		if (typeof cb === "function") {
			args[args.length - 1] = function (...r) {
				const c = (counts[k] ??= [0, 0]);
				c[0]++;
				c[1] += performance.now() - t0;
				return cb.apply(this, r);
			};
		}
		return real[k].apply(real, args);
	};
}
globalThis.fs = wrapped;
process.on("exit", () => {
	for (const [k, v] of Object.entries(counts)) console.error("FSCALL", k, v[0], v[1].toFixed(3));
});
'''
needle = 'globalThis.fs = require("fs");\n'
assert needle in src, "wasm_exec_node.js changed: no fs line to wrap"
open(sys.argv[2], "w").write(src.replace(needle, wrap, 1))
PY
GOOS=js GOARCH=wasm go test -c -pgo="$PWD/cmd/ressim/default.pgo" -o "$work/wasm.test" ./sim/run
go run ./internal/wasmjump/cmd/wasmjump "$work/wasm.test" "$work/wasm.test" >/dev/null 2>&1
for n in 1 3; do
	(cd sim/run && GOGC=400 node "$work/exec.js" "$work/wasm.test" -test.run '^$' -test.bench "$bench" \
		-test.benchtime ${n}x 2>&1 >/dev/null | grep '^FSCALL' >"$work/calls-$n") || true
done
python3 - "$work/calls-1" "$work/calls-3" <<'PY'
import sys
def read(p):
    out = {}
    for line in open(p):
        _, k, n, ms = line.split()
        out[k] = (int(n), float(ms))
    return out
one, three = read(sys.argv[1]), read(sys.argv[2])
rows = []
for k in sorted(set(one) | set(three)):
    n1, t1 = one.get(k, (0, 0.0))
    n3, t3 = three.get(k, (0, 0.0))
    rows.append(((n3 - n1) / 2, (t3 - t1) / 2, k))
rows.sort(key=lambda r: (-r[0], r[2]))
print("%-10s %8s %10s" % ("call", "per op", "ms per op"))
for n, t, k in rows:
    print("%-10s %8.1f %10.1f" % (k, n, t))
print("%-10s %8.1f %10.1f" % ("total", sum(r[0] for r in rows), sum(r[1] for r in rows)))
PY
