package engine

import "testing"

// TestBranch: a stream branched at a time draws the parent's numbers up
// to it and the branch seed's after, whatever it drew before; streams
// created after the branch use the branch seed; two branches with the
// same seed agree, and with different seeds differ.
func TestBranch(t *testing.T) {
	draw := func(branch bool, seed uint64) (before, after []uint64, late uint64) {
		s := New(1)
		r := s.Stream("a")
		for range 3 {
			before = append(before, r.Uint64())
		}
		if branch {
			s.Branch(seed)
		}
		for range 3 {
			after = append(after, r.Uint64())
		}
		return before, after, s.Stream("b").Uint64()
	}
	b0, a0, l0 := draw(false, 0)
	b1, a1, l1 := draw(true, 7)
	b2, a2, l2 := draw(true, 7)
	_, a3, _ := draw(true, 8)
	for i := range b0 {
		if b0[i] != b1[i] {
			t.Fatalf("draw %d before the branch: %d, parent %d", i, b1[i], b0[i])
		}
		if a1[i] != a2[i] || b1[i] != b2[i] {
			t.Fatalf("two branches with seed 7 differ at draw %d", i)
		}
		if a1[i] == a0[i] || a1[i] == a3[i] {
			t.Fatalf("draw %d after the branch: %d, parent %d, seed 8 %d", i, a1[i], a0[i], a3[i])
		}
	}
	if want := New(7).Stream("b").Uint64(); l1 != want || l2 != want || l0 == want {
		t.Fatalf("a stream created after the branch drew %d, want %d (the branch seed's)", l1, want)
	}
}
