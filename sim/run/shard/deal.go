package shard

import (
	"container/heap"
	"sort"

	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// assignModels deals the units of reps replications of models to n
// shards: AssignUnits on each model's estimated events, computed by
// dealModels without a list of every unit's cost.
func assignModels(models []topology.Config, reps, n int) [][]int {
	out := make([][]int, n)
	dealModels(models, reps, n, func(u, s int) { out[s] = append(out[s], u) })
	for _, us := range out {
		sort.Ints(us)
	}
	return out
}

// shardUnits is shard s's part of assignModels, in increasing order; it
// holds only that part (and a heap of the shards), so that a shard of a
// sweep of millions of units plans in memory that grows with its own.
func shardUnits(models []topology.Config, reps int, s Shard) []int {
	mine := []int{}
	dealModels(models, reps, s.N, func(u, shard int) {
		if shard == s.I {
			mine = append(mine, u)
		}
	})
	sort.Ints(mine)
	return mine
}

// dealModels calls deal(u, shard) for every unit of reps replications
// of models (unit u is replication u / k of model u % k), in the order
// and with the shards of AssignUnits on the models' estimated events:
// the units from the most to the least costly, ties by index, each to
// the shard with the least cost so far (ties to the lowest). The units
// of equal cost are those of the models of that cost, which come in
// increasing index replication by replication, so it walks them without
// sorting a list of every unit (TestDealModelsIsAssignUnits).
func dealModels(models []topology.Config, reps, n int, deal func(u, shard int)) {
	per := make([]float64, len(models))
	for i, m := range models {
		per[i] = runner.Estimate(m).Events
	}
	dealCosts(per, reps, n, deal)
}

// dealCosts is dealModels for models of estimated costs per.
func dealCosts(per []float64, reps, n int, deal func(u, shard int)) {
	k := len(per)
	byCost := make([]int, k)
	for i := range byCost {
		byCost[i] = i
	}
	sort.SliceStable(byCost, func(a, b int) bool { return per[byCost[a]] > per[byCost[b]] })
	h := make(loads, n)
	for i := range h {
		h[i].shard = i
	}
	for lo := 0; lo < k; {
		hi := lo + 1
		for hi < k && per[byCost[hi]] == per[byCost[lo]] {
			hi++
		}
		group := append([]int(nil), byCost[lo:hi]...)
		sort.Ints(group)
		for rep := 0; rep < reps; rep++ {
			for _, m := range group {
				deal(rep*k+m, h[0].shard)
				h[0].cost += per[m]
				heap.Fix(&h, 0)
			}
		}
		lo = hi
	}
}
