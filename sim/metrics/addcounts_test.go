package metrics

import "testing"

// TestAddCountsLengths checks the unrolled addCounts against one addition
// per bucket on every length up to a few turns of its loop, the tail
// included.
func TestAddCountsLengths(t *testing.T) {
	for n := range 19 {
		dst, src, want := make([]uint64, n), make([]uint64, n), make([]uint64, n)
		for i := range n {
			dst[i], src[i] = uint64(i*i+1), uint64(3*i+7)
			want[i] = dst[i] + src[i]
		}
		addCounts(dst, src)
		for i := range n {
			if dst[i] != want[i] {
				t.Fatalf("length %d: bucket %d = %d, want %d", n, i, dst[i], want[i])
			}
		}
	}
}

// TestScanToMatchesLoop checks scanTo, which skips four buckets at a
// time, against the one-by-one scan on every start and target of a few
// bucket arrays with empty runs.
func TestScanToMatchesLoop(t *testing.T) {
	arrays := [][]uint64{{}, {5}, {0, 0, 0, 0, 0, 0, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 1, 0, 0, 2, 0, 0, 0, 0, 7, 1}}
	for _, counts := range arrays {
		total := uint64(0)
		for _, c := range counts {
			total += c
		}
		for start := range len(counts) + 1 {
			for cum0 := uint64(0); cum0 < 3; cum0++ {
				for k := uint64(0); k <= total+cum0+1; k++ {
					i, cum := start, cum0
					for cum < k && i < len(counts) {
						cum += counts[i]
						i++
					}
					if gi, gc := scanTo(counts, start, cum0, k); gi != i || gc != cum {
						t.Fatalf("%v from %d, cum %d, k %d: got %d, %d, want %d, %d", counts, start, cum0, k, gi, gc, i, cum)
					}
				}
			}
		}
	}
}
