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
