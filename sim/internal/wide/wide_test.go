package wide

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// edges are the values where carries, borrows and the 32-bit test of
// Mul change: around 0, 2^32 and 2^63, and the top.
var edges = []uint64{
	0, 1, 2, 1<<32 - 2, 1<<32 - 1, 1 << 32, 1<<32 + 1,
	1<<63 - 1, 1 << 63, 1<<63 + 1, 1<<64 - 2, 1<<64 - 1,
}

// pairs is every pair of edges, then pseudo-random pairs (a fixed seed)
// mixing edges, small numbers and full 64-bit ones.
func pairs() [][2]uint64 {
	var ps [][2]uint64
	for _, x := range edges {
		for _, y := range edges {
			ps = append(ps, [2]uint64{x, y})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() uint64 {
		switch r.IntN(3) {
		case 0:
			return edges[r.IntN(len(edges))] + uint64(r.IntN(3)) - 1
		case 1:
			return uint64(r.Uint32())
		}
		return r.Uint64()
	}
	for range 100000 {
		ps = append(ps, [2]uint64{pick(), pick()})
	}
	return ps
}

// lessBits is the reference for Less: the borrow out of the
// 128-bit subtraction, by math/bits.
func lessBits(xhi, xlo, yhi, ylo uint64) uint64 {
	_, borrow := bits.Sub64(xlo, ylo, 0)
	_, borrow = bits.Sub64(xhi, yhi, borrow)
	return borrow
}

// check compares the functions with math/bits on x and y, and
// Less on the 128-bit numbers their pairs make.
func check(t *testing.T, x, y uint64) {
	t.Helper()
	s, c := AddCarry(x, y)
	ws, wc := bits.Add64(x, y, 0)
	if s != ws || c != wc {
		t.Fatalf("AddCarry(%#x, %#x) = %#x, %d; bits.Add64 gives %#x, %d", x, y, s, c, ws, wc)
	}
	d, b := SubBorrow(x, y)
	wd, wb := bits.Sub64(x, y, 0)
	if d != wd || b != wb {
		t.Fatalf("SubBorrow(%#x, %#x) = %#x, %d; bits.Sub64 gives %#x, %d", x, y, d, b, wd, wb)
	}
	h, l := Mul(x, y)
	wh, wl := bits.Mul64(x, y)
	if h != wh || l != wl {
		t.Fatalf("Mul(%#x, %#x) = %#x, %#x; bits.Mul64 gives %#x, %#x", x, y, h, l, wh, wl)
	}
	for _, q := range [][4]uint64{{x, y, y, x}, {x, x, x, y}, {y, x, y, y}, {x, y, x, y}} {
		got, want := Less(q[0], q[1], q[2], q[3]), lessBits(q[0], q[1], q[2], q[3])
		if got != want {
			t.Fatalf("Less(%#x, %#x, %#x, %#x) = %d, lessBits %d", q[0], q[1], q[2], q[3], got, want)
		}
	}
}

// TestMatchesBits compares the functions with math/bits on the edge pairs
// and 100,000 random ones, natively, where math/bits is the reference.
func TestMatchesBits(t *testing.T) {
	for _, p := range pairs() {
		check(t, p[0], p[1])
	}
}

// FuzzMatchesBits is TestMatchesBits on the fuzzer's pairs.
func FuzzMatchesBits(f *testing.F) {
	for _, x := range edges {
		f.Add(x, ^x)
	}
	f.Fuzz(check)
}
