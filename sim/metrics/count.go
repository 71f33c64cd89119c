package metrics

import (
	"math/bits"

	"github.com/ressim/ressim/sim/internal/wide"
)

// Count is the time-weighted record of a non-negative integer quantity
// (requests in a queue, busy workers): the integer counterpart of Level,
// and about twice as fast on the event loop's hot path.
//
// The area since instant 0 is kept exactly, as a 128-bit integer of
// value*nanoseconds: with a value below 2^63 and instants below 2^63 ns
// the area cannot reach 2^128, which no run comes near. Callers take
// differences of Area at two instants for a window's average, so no
// window state is kept.
//
// Instants passed to one Count must not decrease; an earlier instant is
// treated as the last one. The zero Count has value 0 at instant 0. A
// Count is not safe for concurrent use.
type Count struct {
	v    int64 // current value, >= 0
	last int64 // instant of the last change
	w    u128  // the weight: the sum of each change times its instant
	max  int64 // largest value held
}

// How the area is kept. A value that changes by d_j at instants t_j
// (starting from 0 at 0) has, at any T at or after the last change,
// value v = sum d_j and area
//
//	area(T) = sum d_j*(T - t_j) = v*T - sum d_j*t_j = v*T - w.
//
// So a change adds d*t to the weight w, and Area multiplies once. For the
// changes the hot path makes, +1 and -1 (Inc, Dec), that is adding or
// subtracting the instant: no product, where integrating as the value
// went (area += v*(t - last)) took a 64x64->128-bit product per change,
// about a dozen instructions in WebAssembly, which has none, and made
// Count.Add too big to inline there (cost 114 against the inliner's 80;
// 3 % of BenchmarkExecute/mm10's time in node went to the calls). The
// weight can be negative (a decrease late in the run) and is kept as a
// two's-complement 128-bit number; v*T - w is then exact modulo 2^128,
// hence exact, the area being in [0, 2^128). It is the same integer the
// old integration gave, so Area returns the same float64 to the bit
// (TestCountMatchesReference).

// u128 is a 128-bit integer, unsigned or two's complement.
type u128 struct{ hi, lo uint64 }

// plus returns x + y modulo 2^64 and its carry, by package wide in
// WebAssembly (no add-with-carry there) and bits.Add64 elsewhere.
func plus(x, y uint64) (sum, carry uint64) {
	if wide.Wasm {
		return wide.AddCarry(x, y)
	}
	return bits.Add64(x, y, 0)
}

// minus returns x - y modulo 2^64 and its borrow.
func minus(x, y uint64) (diff, borrow uint64) {
	if wide.Wasm {
		return wide.SubBorrow(x, y)
	}
	return bits.Sub64(x, y, 0)
}

// Inc adds 1 to the value at instant now: Add(now, 1), small enough to
// inline wherever it is called.
func (c *Count) Inc(now int64) {
	now = max(now, c.last)
	c.last = now
	c.v++
	c.max = max(c.max, c.v)
	var carry uint64
	c.w.lo, carry = plus(c.w.lo, uint64(now))
	c.w.hi += carry
}

// Dec takes 1 from the value at instant now: Add(now, -1). A value of
// zero stays zero (a caller's bug that must not corrupt the area).
func (c *Count) Dec(now int64) {
	now = max(now, c.last)
	c.last = now
	if c.v > 0 {
		c.v--
		var borrow uint64
		c.w.lo, borrow = minus(c.w.lo, uint64(now))
		c.w.hi -= borrow
	}
}

// Add changes the value by delta at instant now. A value that would drop
// below zero is clamped to zero (a caller's bug that must not corrupt the
// area). Inc and Dec are the same for +1 and -1, and cheaper.
func (c *Count) Add(now, delta int64) {
	now = max(now, c.last)
	c.last = now
	if delta < 0 {
		delta = max(delta, -c.v) // the clamp: the change made
	}
	c.v += delta
	c.max = max(c.max, c.v)
	neg := delta < 0
	if neg {
		delta = -delta // at most c.v: no overflow
	}
	h, l := bits.Mul64(uint64(delta), uint64(now))
	var c1 uint64
	if neg {
		c.w.lo, c1 = minus(c.w.lo, l)
		c.w.hi -= h + c1
	} else {
		c.w.lo, c1 = plus(c.w.lo, l)
		c.w.hi += h + c1
	}
}

// Value returns the current value.
func (c *Count) Value() int64 { return c.v }

// Max returns the largest value held since instant 0.
func (c *Count) Max() int64 { return c.max }

// Area returns the integral of the value from instant 0 to now (or to
// the last change, if later), in value*nanoseconds, rounded once to
// float64.
func (c *Count) Area(now int64) float64 {
	a := c.area(now)
	return u128ToFloat(a.hi, a.lo)
}

// area is Area's exact integer: v*T - w, T the later of now and the last
// change.
func (c *Count) area(now int64) u128 {
	h, l := bits.Mul64(uint64(c.v), uint64(max(now, c.last)))
	l, b := minus(l, c.w.lo)
	return u128{h - c.w.hi - b, l}
}
