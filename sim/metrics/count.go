package metrics

// Count is the time-weighted record of a non-negative integer quantity
// (requests in a queue, busy workers): the integer counterpart of Level,
// and about twice as fast on the event loop's hot path.
//
// The area since instant 0 is kept exactly, as a 128-bit unsigned integer
// of value*nanoseconds: with a value below 2^63 and spans below 2^63 ns no
// product or sum can overflow before 2^128, which no run reaches. Callers
// take differences of Area at two instants for a window's average, so no
// window state is kept.
//
// Instants passed to one Count must not decrease; an earlier instant is
// treated as the last one. The zero Count has value 0 at instant 0. A
// Count is not safe for concurrent use.
type Count struct {
	v      int64  // current value, >= 0
	last   int64  // instant of the last change
	hi, lo uint64 // area from 0 to last, value*ns
	max    int64  // largest value held
}

// Add is in count_add.go, and for WebAssembly in count_add_wasm.go.

// Value returns the current value.
func (c *Count) Value() int64 { return c.v }

// Max returns the largest value held since instant 0.
func (c *Count) Max() int64 { return c.max }

// Area returns the integral of the value from instant 0 to now, in
// value*nanoseconds, rounded once to float64.
func (c *Count) Area(now int64) float64 {
	hi, lo := c.hi, c.lo
	if now > c.last {
		hi, lo = areaAdd(hi, lo, uint64(c.v), uint64(now-c.last))
	}
	return u128ToFloat(hi, lo)
}
