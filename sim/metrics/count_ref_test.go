package metrics

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// countRef is Count as it was before Add tested the sign of delta: the
// clamp and the maximum checked on every change.
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

// TestCountAddMatchesReference drives a Count and countRef through the
// same random changes, constant (+1, -1) and variable, some at the same
// instant or an earlier one, and compares value, maximum and area.
func TestCountAddMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c Count
	var ref countRef
	now := int64(0)
	for i := range 100000 {
		now += r.Int64N(1000) - 100 // sometimes earlier: treated as the last instant
		switch r.IntN(4) {
		case 0:
			c.Add(now, 1)
			ref.add(now, 1)
		case 1:
			c.Add(now, -1)
			ref.add(now, -1)
		default:
			d := r.Int64N(21) - 10
			c.Add(now, d)
			ref.add(now, d)
		}
		if c.Value() != ref.v || c.Max() != ref.max || c.hi != ref.hi || c.lo != ref.lo {
			t.Fatalf("change %d: value %d max %d area %d:%d, want %d %d %d:%d", i, c.Value(), c.Max(), c.hi, c.lo, ref.v, ref.max, ref.hi, ref.lo)
		}
	}
}
