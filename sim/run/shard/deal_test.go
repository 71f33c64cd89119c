package shard

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// TestDealModelsIsAssignUnits: walking the units model group by model
// group deals exactly what AssignUnits deals from the list of every
// unit's cost, ties included (costs drawn from three values, so that
// many models tie), for shard counts below, at and above the units.
func TestDealModelsIsAssignUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for trial := 0; trial < 200; trial++ {
		k, reps, n := 1+rng.IntN(12), 1+rng.IntN(9), 1+rng.IntN(20)
		per := make([]float64, k)
		for i := range per {
			per[i] = []float64{1e6, 2.5e6, 7e6}[rng.IntN(3)]
		}
		cost := make([]float64, k*reps)
		for u := range cost {
			cost[u] = per[u%k]
		}
		want := AssignUnits(cost, n)
		got := make([][]int, n)
		dealCosts(per, reps, n, func(u, s int) { got[s] = append(got[s], u) })
		for s := range got {
			sort.Ints(got[s])
			if len(got[s]) == 0 && len(want[s]) == 0 {
				continue
			}
			if !reflect.DeepEqual(got[s], want[s]) {
				t.Fatalf("k %d reps %d n %d costs %v: shard %d gets %v, AssignUnits %v", k, reps, n, per, s, got[s], want[s])
			}
		}
	}
}
