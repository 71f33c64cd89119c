#!/usr/bin/env bash
# benchcmp.sh: compare this checkout's speed with an earlier commit's, the
# way docs/performance.md measures "no bundled experiment got slower".
#
# It checks out REV and HEAD (commit first) into temporary worktrees, copies every bundled
# experiment with the tables an older reader may not know stripped (knobs,
# alerts, variants, expectations, sweeps), and, alternating the two builds
# ROUNDS times, measures:
#   - each experiment in process (run.Execute: read, simulate, summarise,
#     write the data files), test binaries built with cmd/ressim/default.pgo
#     as the shipped binary is (REV's own profile, if it has one);
#   - each experiment as a process, `ressim run FILE --no-plots`, CPU time;
#   - with FIGURES=1 in the environment, also `ressim run FILE` (the default:
#     with its figures), CPU time.
# It prints the medians and their ratios. Needs python3.
#
# Usage: [FIGURES=1] scripts/benchcmp.sh REV [ROUNDS]     (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/benchcmp.sh REV [ROUNDS]}
rounds=${2:-5}
work=$(mktemp -d)
cleanup() {
	git worktree remove --force "$work/old" 2>/dev/null || true
	git worktree remove --force "$work/new" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
git worktree add -q --detach "$work/old" "$rev"
git worktree add -q --detach "$work/new" HEAD
mkdir -p "$work/exp"
python3 - "$work/exp" experiments/*.toml <<'PY'
import os, re, sys
drop = re.compile(r'^\s*\[\[?\s*(knob|alerts|variant|expect|sweep)\b')
header = re.compile(r'^\s*\[')
for path in sys.argv[2:]:
    out, skip = [], False
    for line in open(path):
        if header.match(line):
            skip = bool(drop.match(line))
        if not skip:
            out.append(line)
    open(os.path.join(sys.argv[1], os.path.basename(path)), 'w').write(''.join(out))
PY
for side in old new; do
	tree="$work/$side"
	# Execute's signature changed twice: Options.OutDir, then a Sink
	# argument (in sim/run, later in sim/run/output). Call each side's.
	sinkImport="" execute="Execute(exp, Options{OutDir: dir})"
	if [ -d "$tree/sim/run/output" ]; then
		sinkImport='"github.com/ressim/ressim/sim/run/output"'
		execute="Execute(exp, Options{}, output.NewFolder(dir, false))"
	elif grep -q "sink Sink" "$tree/sim/run/run.go"; then
		execute="Execute(exp, Options{}, NewFolder(dir, false))"
	fi
	cat >"$tree/sim/run/zz_benchcmp_test.go" <<GO
package run

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	$sinkImport
)

func BenchmarkCmp(b *testing.B) {
	files, _ := filepath.Glob("$work/exp/*.toml")
	for _, f := range files {
		b.Run(strings.TrimSuffix(filepath.Base(f), ".toml"), func(b *testing.B) {
			exp, err := experiment.Load(f)
			if err != nil {
				b.Skip(err)
			}
			dir := b.TempDir()
			for b.Loop() {
				if _, err := $execute; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
GO
	pgo=off
	[ -f "$tree/cmd/ressim/default.pgo" ] && pgo="$tree/cmd/ressim/default.pgo"
	(cd "$tree" && go test -c -pgo="$pgo" -o "$work/$side.test" ./sim/run && go build -o "$work/$side-ressim" ./cmd/ressim)
done
python3 - "$work" "$rounds" <<'PY'
import glob, os, re, statistics, subprocess, sys
work, rounds = sys.argv[1], int(sys.argv[2])
files = sorted(glob.glob(os.path.join(work, 'exp', '*.toml')))
inproc, proc, withfig = {}, {}, {}
figures = os.environ.get('FIGURES') == '1'
for r in range(rounds):
    for side in ('old', 'new'):
        out = subprocess.run([os.path.join(work, side + '.test'), '-test.run', '^$', '-test.bench', 'BenchmarkCmp',
                              '-test.benchtime', '10x'], capture_output=True, text=True,
                             cwd=os.path.join(work, side, 'sim', 'run')).stdout
        for line in out.splitlines():
            m = re.match(r'BenchmarkCmp/(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op', line)
            if m:
                inproc.setdefault(m.group(1), {}).setdefault(side, []).append(float(m.group(3)) / 1e6)
        for f in files:
            p = subprocess.Popen([os.path.join(work, side + '-ressim'), 'run', f, '--no-plots', '-o',
                                  os.path.join(work, 'out', side)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            if status == 0:
                name = os.path.basename(f)[:-5]
                proc.setdefault(name, {}).setdefault(side, []).append((ru.ru_utime + ru.ru_stime) * 1000)
            if figures:
                p = subprocess.Popen([os.path.join(work, side + '-ressim'), 'run', f, '-o',
                                      os.path.join(work, 'out', side)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, status, ru = os.wait4(p.pid, 0)
                if status == 0:
                    name = os.path.basename(f)[:-5]
                    withfig.setdefault(name, {}).setdefault(side, []).append((ru.ru_utime + ru.ru_stime) * 1000)
def table(title, data):
    print(title)
    print('%-28s %10s %10s %6s' % ('experiment', 'old ms', 'new ms', 'ratio'))
    to = tn = 0
    for name in sorted(data):
        d = data[name]
        if 'old' not in d or 'new' not in d:
            print('%-28s %s' % (name, 'only in ' + ' '.join(d)))
            continue
        o, n = statistics.median(d['old']), statistics.median(d['new'])
        to, tn = to + o, tn + n
        print('%-28s %10.1f %10.1f %6.2f' % (name, o, n, n / o))
    if to:
        print('%-28s %10.1f %10.1f %6.2f' % ('total', to, tn, tn / to))
table('In process (run.Execute, wall time, medians of %d rounds of 10):' % rounds, inproc)
print()
table('Process (ressim run --no-plots, CPU time, medians of %d):' % rounds, proc)
if figures:
    print()
    table('Process with its figures (ressim run, CPU time, medians of %d):' % rounds, withfig)
PY
