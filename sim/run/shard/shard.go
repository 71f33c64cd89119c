package shard

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard is one part of a sweep split across N processes or machines:
// shard I of N, 0 <= I < N.
type Shard struct{ I, N int }

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// MaxShards bounds N: more shards than that is surely a typo.
const MaxShards = 100000

// ParseShard parses "I/N". "auto/N" takes I from the batch engine's
// environment (getenv): JOB_COMPLETION_INDEX (a Kubernetes Indexed Job),
// else SLURM_ARRAY_TASK_ID (a Slurm job array submitted as
// --array=0-(N-1)). The Slurm task id is the shard itself, not an offset
// from SLURM_ARRAY_TASK_MIN: a failed task resubmitted alone
// (sbatch --array=2) then runs its own shard, where an offset would make
// it redo shard 0 and exit 0. An index outside [0, N) is refused. It
// returns the shard and, for auto, the variable it used.
func ParseShard(s string, getenv func(string) string) (Shard, string, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, "", fmt.Errorf("shard %q: want I/N or auto/N", s)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 1 || n > MaxShards {
		return Shard{}, "", fmt.Errorf("shard %q: N must be an integer from 1 to %d", s, MaxShards)
	}
	from := ""
	if is == "auto" {
		is, from, err = autoIndex(getenv, n)
		if err != nil {
			return Shard{}, "", fmt.Errorf("shard %q: %w", s, err)
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return Shard{}, "", fmt.Errorf("shard %q: I (%q) must be an integer from 0 to %d", s, is, n-1)
	}
	return Shard{I: i, N: n}, from, nil
}

// autoIndex reads the shard index from a batch engine's environment and
// checks it lies in [0, n).
func autoIndex(getenv func(string) string, n int) (string, string, error) {
	name, hint := "JOB_COMPLETION_INDEX", "set the Indexed Job's completions to N"
	v := getenv(name)
	if v == "" {
		name, hint = "SLURM_ARRAY_TASK_ID", fmt.Sprintf("submit the array as --array=0-%d (the task id is the shard; resubmit a failed task with --array=<its id>)", n-1)
		if v = getenv(name); v == "" {
			return "", "", fmt.Errorf("auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set")
		}
	}
	k, err := strconv.Atoi(v)
	if err != nil {
		return "", "", fmt.Errorf("auto: %s=%q is not an integer", name, v)
	}
	if k < 0 || k >= n {
		return "", "", fmt.Errorf("auto: %s=%d is outside 0..%d: %s", name, k, n-1, hint)
	}
	return v, name + "=" + v, nil
}

// AssignUnits deals work units 0..len(cost)-1 to n shards, balanced by
// cost: the units are taken from the most to the least costly (ties by
// index) and each goes to the shard with the least cost so far (ties to
// the lowest shard) — the longest-processing-time rule, within 4/3 of
// the best balance. Equal costs make it round-robin. It depends only on
// its arguments, so every shard computes the same assignment on its own.
// Each shard's units are returned in increasing order.
func AssignUnits(cost []float64, n int) [][]int {
	order := make([]int, len(cost))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	h := make(loads, n)
	for i := range h {
		h[i].shard = i
	}
	out := make([][]int, n)
	for _, u := range order {
		out[h[0].shard] = append(out[h[0].shard], u)
		h[0].cost += cost[u]
		heap.Fix(&h, 0)
	}
	for _, us := range out {
		sort.Ints(us)
	}
	return out
}

// loads is a min-heap of the shards by cost so far, then by index.
type loads []struct {
	cost  float64
	shard int
}

func (h loads) Len() int { return len(h) }
func (h loads) Less(a, b int) bool {
	if h[a].cost != h[b].cost {
		return h[a].cost < h[b].cost
	}
	return h[a].shard < h[b].shard
}
func (h loads) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *loads) Push(any)     { panic("loads: fixed size") }
func (h *loads) Pop() any     { panic("loads: fixed size") }
