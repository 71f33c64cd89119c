package metrics

import "math/bits"

// Add changes the value by delta at instant now, as count_add.go's does.
// WebAssembly has no 64x64->128 multiply, so bits.Mul64 and bits.Add64
// are a dozen instructions each there (Add was 12 % of BenchmarkExecute/mm10
// in node); a Count's value and the span since its last change almost
// always fit in 32 bits, whose product fits in 64, and then one multiply
// and a compare for the carry do. The area is the same to the bit.
func (c *Count) Add(now int64, delta int64) {
	if now > c.last {
		c.hi, c.lo = areaAdd(c.hi, c.lo, uint64(c.v), uint64(now-c.last))
		c.last = now
	}
	c.v = max(c.v+delta, 0)
	c.max = max(c.max, c.v)
}

// areaAdd returns the 128-bit (hi, lo) plus v*d.
func areaAdd(hi, lo, v, d uint64) (uint64, uint64) {
	if (v|d)>>32 == 0 {
		p := v * d
		lo += p
		if lo < p {
			hi++
		}
		return hi, lo
	}
	h, l := bits.Mul64(v, d)
	var carry uint64
	lo, carry = bits.Add64(lo, l, 0)
	return hi + h + carry, lo
}
