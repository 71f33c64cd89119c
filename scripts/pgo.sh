#!/usr/bin/env bash
# pgo.sh: regenerate the profile that guides the compiler (profile-guided
# optimisation, go.dev/doc/pgo) for the ressim binary.
#
# It builds ressim without a profile, runs what users run (every bundled
# experiment with its figures, and the comparison of every file that has
# variants) with --cpuprofile, merges the profiles, and writes the result to
# cmd/ressim/default.pgo, which `go build` picks up by itself (-pgo=auto).
# The playground's main.wasm is built with the same profile
# (playground.PGOFile), and so are the benchmarks of scripts/wasm-ratio.sh
# and scripts/wasm-instructions.sh. Rerun it when the hot paths change
# (docs/performance.md says how much it gains and how to check).
#
# Usage: scripts/pgo.sh            (from the repository root; about 25 s on 2 cores with a warm build cache)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -pgo=off -o "$work/ressim" ./cmd/ressim
n=0
for f in experiments/*.toml; do
	name=$(basename "$f" .toml)
	# Each run twice, with another seed the second time, so that short runs
	# leave enough samples (100 per second of CPU).
	for seed in 1 2; do
		"$work/ressim" run "$f" --seed "$seed" --svg -o "$work/out/$name-$seed" \
			--cpuprofile "$work/run-$name-$seed.prof" >/dev/null
		n=$((n + 1))
	done
	if grep -q '^\[\[variant\]\]' "$f"; then
		"$work/ressim" compare "$f" --replications 2 -o "$work/out/$name-compare" \
			--cpuprofile "$work/compare-$name.prof" >/dev/null || true # a failed [[expect]] still profiles
		n=$((n + 1))
	fi
done
go tool pprof -proto "$work"/*.prof >"$work/merged.pgo" 2>/dev/null
cp "$work/merged.pgo" cmd/ressim/default.pgo
echo "pgo.sh: merged $n profiles into cmd/ressim/default.pgo ($(wc -c <cmd/ressim/default.pgo) bytes)"
