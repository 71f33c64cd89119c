#!/usr/bin/env bash
# instructions.sh: count the instructions the simulator executes in one run
# of BenchmarkMM10 and of BenchmarkMetastableRetryStorm, at REV and at this
# checkout, under Valgrind's cachegrind.
#
# Times on a shared machine move by 5 % or more between batches; an
# instruction count does not move at all, so it tells whether a change
# added or removed work, and where (by package and by function), without
# alternating rounds. It is not a time: a branch-free loop executes more
# instructions than the branchy one it replaces and runs faster, so the
# time comparisons of scripts/benchcmp.sh still decide (docs/performance.md).
# Only the simulator's own code is counted (github.com/ressim/ressim/sim/...
# and math, rand included): the Go runtime's count varies with thread
# scheduling under Valgrind.
#
# Usage: scripts/instructions.sh REV [TOP]     (from the repository root; needs valgrind
#        and python3; about 2 minutes). TOP is how many functions to list (default 15).
# Valgrind 3.19 does not emulate RDTSCP, which the Go runtime executes when
# a lock is contended: GODEBUG=cpu.rdtscp=off makes the runtime use RDTSC.
set -euo pipefail
rev=${1:?usage: scripts/instructions.sh REV [TOP]}
top=${2:-15}
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 2; }
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/old" "$rev" >/dev/null 2>&1
for tree in old new; do
	dir=$work/old
	[ "$tree" = new ] && dir=$PWD
	(cd "$dir" && go test -c -pgo=off -o "$work/$tree-sim_topology.test" ./sim/topology &&
		go test -c -pgo=off -o "$work/$tree-experiments.test" ./experiments)
done
count() { # tree package benchmark
	local dir=$work/old
	[ "$1" = new ] && dir=$PWD
	for _ in 1 2 3; do
		(cd "$dir/$2" && GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no \
			--cachegrind-out-file="$work/$1-$3.cg" "$work/$1-${2//\//_}.test" \
			-test.run '^$' -test.bench "^Benchmark$3\$" -test.benchtime 1x >"$work/log" 2>&1) || true
		grep -q "^Benchmark$3" "$work/log" && return 0
	done
	echo "instructions.sh: $3 at $1 did not finish under valgrind:" >&2
	tail -5 "$work/log" >&2
	exit 1
}
for bench in sim/topology:MM10 experiments:MetastableRetryStorm; do
	count old "${bench%%:*}" "${bench#*:}"
	count new "${bench%%:*}" "${bench#*:}"
done
python3 - "$work" "$rev" "$top" <<'EOF'
import collections, re, subprocess, sys
work, rev, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(f):
    out = subprocess.run(['cg_annotate', '--threshold=0', f], capture_output=True, text=True, check=True).stdout
    d = collections.Counter()
    for line in out.splitlines():
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+\S+:(\S+)$', line)
        if m:
            fn = m.group(2).replace('github.com/ressim/ressim/', '')
            if fn.startswith('sim/') or fn.startswith('math'):
                d[fn] += int(m.group(1).replace(',', ''))
    return d
for bench in ['MM10', 'MetastableRetryStorm']:
    a, b = load(f'{work}/old-{bench}.cg'), load(f'{work}/new-{bench}.cg')
    ta, tb = sum(a.values()), sum(b.values())
    print(f'{bench}: {ta/1e6:,.1f} M instructions at {rev}, {tb/1e6:,.1f} M now ({tb/ta:.3f})')
    pkg = lambda d, p: sum(v for k, v in d.items() if k.split('.')[0].startswith(p))
    for p in ['sim/engine', 'sim/topology', 'sim/metrics', 'sim/policies', 'sim/dist', 'math']:
        print(f'  {p:<14} {pkg(a, p)/1e6:9.1f} {pkg(b, p)/1e6:9.1f}')
    keys = sorted(set(a) | set(b), key=lambda k: -abs(b[k] - a[k]))
    for k in keys[:top]:
        print(f'  {(b[k]-a[k])/1e6:+9.1f} M  {k}')
EOF
