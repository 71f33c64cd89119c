package run

import (
	"sort"

	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// costOrder is the indices of models from the most to the least costly
// by Estimate's events (ties by index). Within one replication, runs are
// handed out in this order, so that the costliest start first and the
// last runs of the command, which may leave a core idle while they
// finish, are the shortest (the longest-processing-time rule). The order
// does not reach any output: every run's result is stored by its index.
func CostOrder(models []topology.Config) []int {
	cost := make([]float64, len(models))
	order := make([]int, len(models))
	for i, m := range models {
		cost[i], order[i] = runner.Estimate(m).Events, i
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	return order
}
