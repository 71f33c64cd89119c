#!/usr/bin/env bash
# Compares `ressim run --no-plots` on the M/M/10 validation model (lambda
# 900/s, mu 100/s, c 10, ~1e6 customers) with the peers in scripts/peers:
# a bare Go event loop on container/heap and the idiomatic SimPy 3 model
# (both in scripts/peers, so the script runs from a fresh clone).
# Runs alternate (ressim, bare, simpy, ressim, ...) so that machine noise
# hits all three alike; the script prints each command's median whole-process
# wall time and the ratios. Usage: scripts/bench-peers.sh [ROUNDS] (default 7).
# Needs python3-simpy3 (apt-get install -y python3-simpy3) for the SimPy column.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
peers=${PEERS:-scripts/peers}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/ressim" ./cmd/ressim
mkdir -p "$work/peer"
cp "$peers/bare-heap-mmc.go.txt" "$work/peer/main.go"
(cd "$work/peer" && go mod init peer >/dev/null 2>&1 && go build -o bare .)
have_simpy=0
if /usr/bin/python3 -c 'import simpy' 2>/dev/null; then have_simpy=1; fi

now() { date +%s%N; }
time_cmd() { # prints wall seconds of the command
  local t0 t1
  t0=$(now); "$@" >/dev/null; t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$work/ressim.t"; : >"$work/bare.t"; : >"$work/simpy.t"
for i in $(seq "$rounds"); do
  time_cmd "$work/ressim" run experiments/mm10.toml --no-plots -o "$work/out" >>"$work/ressim.t"
  time_cmd "$work/peer/bare" -n 1000000 -lam 900 -mu 100 -c 10 -seed "$i" -warm 10000 >>"$work/bare.t"
  if [ "$have_simpy" = 1 ] && [ "$i" -le 3 ]; then
    time_cmd /usr/bin/python3 "$peers/simpy_mmc.py" 1000000 900 100 10 "$i" 10000 >>"$work/simpy.t"
  fi
done
customers=$(python3 -c "import json; d = json.load(open('$work/out/summary.json')); print(sum(c['sent'] for c in d['clients'].values()))" 2>/dev/null || echo 990000)
# The window counts customers after warm-up; add the warm-up's (10 s x 900/s).
customers=$((customers + 9000))
r=$(median <"$work/ressim.t"); b=$(median <"$work/bare.t")
printf '%-34s %8s %14s\n' "command (median of runs)" "wall s" "customers/s"
awk -v t="$r" -v n="$customers" 'BEGIN { printf "%-34s %8.3f %14.0f\n", "ressim run --no-plots", t, n / t }'
awk -v t="$b" 'BEGIN { printf "%-34s %8.3f %14.0f\n", "bare Go loop (container/heap)", t, 1e6 / t }'
if [ -s "$work/simpy.t" ]; then
  s=$(median <"$work/simpy.t")
  awk -v t="$s" 'BEGIN { printf "%-34s %8.3f %14.0f\n", "SimPy 3 (3 runs)", t, 1e6 / t }'
  awk -v r="$r" -v b="$b" -v s="$s" -v n="$customers" 'BEGIN { printf "ratios (customers/s): ressim/bare %.2f, ressim/SimPy %.1f\n", (n / r) / (1e6 / b), (n / r) / (1e6 / s) }'
else
  awk -v r="$r" -v b="$b" -v n="$customers" 'BEGIN { printf "ratio (customers/s): ressim/bare %.2f\n", (n / r) / (1e6 / b) }'
fi
