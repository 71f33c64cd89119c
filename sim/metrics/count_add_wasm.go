package metrics

import "github.com/ressim/ressim/sim/internal/wide"

// Add changes the value by delta at instant now, as count_add.go's does.
// WebAssembly has no 64x64->128 multiply or add-with-carry, so
// bits.Mul64 and bits.Add64 are a dozen instructions each there (Add was
// 12 % of BenchmarkExecute/mm10 in node); a Count's value and the span
// since its last change almost always fit in 32 bits, and package wide
// then multiplies once and compares for the carry. The area is the same
// to the bit. The value is clamped and the maximum kept without a
// branch: Add does not inline at every call there, and a branch costs
// more than a select (the constant delta folds only where Add inlines).
func (c *Count) Add(now int64, delta int64) {
	if now > c.last {
		c.hi, c.lo = areaAdd(c.hi, c.lo, uint64(c.v), uint64(now-c.last))
		c.last = now
	}
	c.v = max(c.v+delta, 0)
	c.max = max(c.max, c.v)
}

// areaAdd returns the 128-bit (hi, lo) plus v*d, with package wide's
// product and carry.
func areaAdd(hi, lo, v, d uint64) (uint64, uint64) {
	h, l := wide.Mul(v, d)
	lo, carry := wide.AddCarry(lo, l)
	return hi + h + carry, lo
}
