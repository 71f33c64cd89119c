package metrics

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// countRef is Count as it was before it kept a weight (count.go): the area
// integrated change by change, area += value*(now - last), with the clamp
// and the maximum checked on every change.
type countRef struct {
	v, last, max int64
	hi, lo       uint64
}

func (c *countRef) add(now, delta int64) {
	if now > c.last {
		h, l := bits.Mul64(uint64(c.v), uint64(now-c.last))
		var carry uint64
		c.lo, carry = bits.Add64(c.lo, l, 0)
		c.hi += h + carry
		c.last = now
	}
	c.v = max(c.v+delta, 0)
	c.max = max(c.max, c.v)
}

// TestCountMatchesReference drives a Count and countRef through the
// same random changes, Inc, Dec and Add (+1, -1 and variable), some at
// the same instant or an earlier one, and compares value, maximum and
// the exact area.
func TestCountMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c Count
	var ref countRef
	now := int64(0)
	for i := range 100000 {
		now += r.Int64N(1000) - 100 // sometimes earlier: treated as the last instant
		switch r.IntN(6) {
		case 0:
			c.Inc(now)
			ref.add(now, 1)
		case 1:
			c.Dec(now)
			ref.add(now, -1)
		case 2:
			c.Add(now, 1)
			ref.add(now, 1)
		case 3:
			c.Add(now, -1)
			ref.add(now, -1)
		default:
			d := r.Int64N(21) - 10
			c.Add(now, d)
			ref.add(now, d)
		}
		// The reference's area runs to its last change; Count's to any
		// instant at or after it.
		if a := c.area(ref.last); c.Value() != ref.v || c.Max() != ref.max || a.hi != ref.hi || a.lo != ref.lo {
			t.Fatalf("change %d: value %d max %d area %d:%d, want %d %d %d:%d", i, c.Value(), c.Max(), a.hi, a.lo, ref.v, ref.max, ref.hi, ref.lo)
		}
	}
}
