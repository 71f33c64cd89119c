//go:build !wasm

package metrics

import "math/bits"

// Add changes the value by delta at instant now. A value that would drop
// below zero is clamped to zero (a caller's bug that must not corrupt the
// area). It inlines: the event loop calls it several times per request.
// The value is read once and written once, through a local: as fields,
// each of its uses was a load and each change a store.
// (count_add_wasm.go has WebAssembly's version.)
func (c *Count) Add(now int64, delta int64) {
	v := c.v
	if now > c.last {
		h, l := bits.Mul64(uint64(v), uint64(now-c.last))
		var carry uint64
		c.lo, carry = bits.Add64(c.lo, l, 0)
		c.hi += h + carry
		c.last = now
	}
	v += delta
	// The value was >= 0 and at most max: only a decrease can take it
	// below 0, only an increase above max. Callers pass a constant delta,
	// so one of the two tests folds away where Add inlines (3 instructions
	// fewer per call: 12 M in the retry storm, 15 M in mm10).
	if delta < 0 {
		v = max(v, 0)
	} else if v > c.max {
		c.max = v
	}
	c.v = v
}

// areaAdd returns the 128-bit (hi, lo) plus v*d: one multiply and an
// add with carry on the processors with 128-bit products.
func areaAdd(hi, lo, v, d uint64) (uint64, uint64) {
	h, l := bits.Mul64(v, d)
	var carry uint64
	lo, carry = bits.Add64(lo, l, 0)
	return hi + h + carry, lo
}
