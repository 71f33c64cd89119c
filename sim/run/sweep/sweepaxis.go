package sweep

import (
	"math"
	"sort"
)

// axisPositions is where a one-axis sweep's values go on the x axis: their
// numbers when these are finite and distinct (plotted in ascending order
// whatever the file's order), else the values' indices, as categories
// (booleans given twice, equal durations written differently).
func axisPositions(numbers []float64, n int) ([]float64, bool) {
	seen := map[float64]bool{}
	ok := len(numbers) == n
	for _, x := range numbers {
		if math.IsNaN(x) || math.IsInf(x, 0) || seen[x] {
			ok = false
		}
		seen[x] = true
	}
	if ok {
		return numbers, false
	}
	return indices(n), true
}

// sortedIndices are the indices of xs in ascending order of value.
func sortedIndices(xs []float64) []int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	return idx
}
