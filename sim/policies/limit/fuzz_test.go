package limit

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzLimiter drives a Limiter over each algorithm with an arbitrary
// sequence of acquires and releases and checks the invariants: the limit
// (integer and fractional) stays within [MinLimit, MaxLimit], in-flight
// never exceeds the limit at admission, a rejection happens only when
// in-flight >= limit, and in-flight equals admitted minus released.
func FuzzLimiter(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 0, 0, 0, 0, 200, 201, 202, 255, 255, 0, 0})
	f.Add([]byte{2, 9, 9, 9, 9, 9, 130, 140, 150, 160, 170})
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 129})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		const lo, hi = 3, 60
		var alg estimator
		var top Algorithm
		switch ops[0] % 4 {
		case 0:
			c := DefaultAIMDConfig()
			c.MinLimit, c.MaxLimit, c.InitialLimit = lo, hi, 10
			a, _ := NewAIMD(c)
			alg, top = a, a
		case 1:
			c := DefaultGradient2Config()
			c.MinLimit, c.MaxLimit, c.InitialLimit, c.Warmup, c.LongWindow = lo, hi, 10, 2, 5
			g, _ := NewGradient2(c)
			alg, top = g, g
		case 2:
			c := DefaultVegasConfig()
			c.MinLimit, c.MaxLimit, c.InitialLimit = lo, hi, 10
			c.Rand = rand.New(rand.NewPCG(1, uint64(len(ops))))
			v, _ := NewVegas(c)
			alg, top = v, v
		case 3:
			c := DefaultVegasConfig()
			c.MinLimit, c.MaxLimit, c.InitialLimit = lo, hi, 10
			v, _ := NewVegas(c)
			wc := DefaultWindowedConfig()
			wc.WindowSize = 1
			wc.MinWindow, wc.MaxWindow = ms, 3*ms
			w, _ := NewWindowed(wc, v)
			alg, top = v, w
		}
		lim, _ := NewLimiter(top)
		var open []Token
		now := time.Duration(0)
		for _, b := range ops[1:] {
			now += time.Duration(b&0x0f) * ms
			if b < 128 {
				before := lim.Inflight()
				limitBefore := lim.Limit()
				tok, ok := lim.Acquire(now)
				if ok {
					if lim.Inflight() > limitBefore {
						t.Fatalf("admitted to in-flight %d above limit %d", lim.Inflight(), limitBefore)
					}
					if tok.Inflight != before+1 {
						t.Fatalf("token inflight %d, want %d", tok.Inflight, before+1)
					}
					open = append(open, tok)
				} else if before < limitBefore {
					t.Fatalf("rejected with in-flight %d below limit %d", before, limitBefore)
				}
			} else if len(open) > 0 {
				i := int(b) % len(open)
				tok := open[i]
				open = append(open[:i], open[i+1:]...)
				o := policies.Outcome(b>>4) % 8
				tr := lim.Release(now+time.Duration(b)*ms, tok, o)
				if tr.To != lim.Limit() {
					t.Fatalf("transition To %d, Limit %d", tr.To, lim.Limit())
				}
			}
			if e := alg.Estimate(); e < lo || e > hi {
				t.Fatalf("estimate %v outside [%d, %d]", e, lo, hi)
			}
			if l := lim.Limit(); l < lo || l > hi {
				t.Fatalf("limit %d outside [%d, %d]", l, lo, hi)
			}
			if lim.Inflight() != len(open) {
				t.Fatalf("Inflight %d, want %d", lim.Inflight(), len(open))
			}
		}
	})
}
