package limit

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// service is a tiny in-test model of a callee with `capacity` parallel
// workers and base service time `base`: a call admitted while n calls are
// in flight (itself included) takes base x max(1, n/capacity), as under
// processor sharing. Demand is unlimited: at every tick the caller sends
// as many calls as the limiter admits.
type service struct {
	capacity int
	base     time.Duration
	pending  []pendingCall // ordered by due time
}

type pendingCall struct {
	due time.Duration
	tok Token
}

func (s *service) rtt(n int) time.Duration {
	if n <= s.capacity {
		return s.base
	}
	return time.Duration(float64(s.base) * float64(n) / float64(s.capacity))
}

// run drives lim against s from `from` for `dur`, in 1 ms ticks, and
// returns the mean limit over the second half of the run.
func (s *service) run(lim *Limiter, from, dur time.Duration) (meanLimit float64) {
	const tick = time.Millisecond
	var sum, n float64
	for now := from; now < from+dur; now += tick {
		// Release what is due, in due order (insertion sort keeps it so).
		i := 0
		for ; i < len(s.pending) && s.pending[i].due <= now; i++ {
			lim.Release(now, s.pending[i].tok, policies.Success)
		}
		s.pending = s.pending[i:]
		for {
			tok, ok := lim.Acquire(now)
			if !ok {
				break
			}
			due := now + s.rtt(tok.Inflight)
			j := len(s.pending)
			s.pending = append(s.pending, pendingCall{})
			for j > 0 && s.pending[j-1].due > due {
				s.pending[j] = s.pending[j-1]
				j--
			}
			s.pending[j] = pendingCall{due: due, tok: tok}
		}
		if now >= from+dur/2 {
			sum += float64(lim.Limit())
			n++
		}
	}
	return sum / n
}

// TestConvergence drives each algorithm against the model with unlimited
// demand and checks that the limit settles near the service's capacity
// and follows it when capacity changes (50, then 150, then 30 workers).
func TestConvergence(t *testing.T) {
	aimdCfg := DefaultAIMDConfig()
	aimdCfg.Timeout = 15 * time.Millisecond // 1.5 x the model's base RTT
	aimd, _ := NewAIMD(aimdCfg)
	vegas, _ := NewVegas(DefaultVegasConfig())
	wc := DefaultWindowedConfig()
	wc.MinWindow, wc.MaxWindow = 100*time.Millisecond, 100*time.Millisecond
	wvegas, _ := NewWindowed(wc, vegas)
	for _, tc := range []struct {
		name   string
		alg    Algorithm
		lo, hi float64 // accepted mean limit, as multiples of capacity
	}{
		// AIMD cuts once per late call, so it saws between about 0.3 C
		// and 1.5 C (where the RTT passes Timeout).
		{"aimd", aimd, 0.5, 1.5},
		// Windowed Vegas keeps a queue of alpha..beta calls.
		{"windowed-vegas", wvegas, 0.9, 1.4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim, _ := NewLimiter(tc.alg)
			s := &service{base: 10 * time.Millisecond}
			var at time.Duration
			for _, c := range []int{50, 150, 30} {
				s.capacity = c
				m := s.run(lim, at, 30*time.Second)
				at += 30 * time.Second
				if m < tc.lo*float64(c) || m > tc.hi*float64(c) {
					t.Errorf("capacity %d: mean limit %.1f, want within [%.0f, %.0f]",
						c, m, tc.lo*float64(c), tc.hi*float64(c))
				}
			}
		})
	}
}

// TestGradient2CutsOnCapacityLoss checks that windowed Gradient2 reacts to
// a capacity loss. Under unlimited demand its long-term RTT follows the
// short-term one and the limit then creeps up by about Smoothing x
// QueueSize per window (a known property of Gradient2, whose baseline is
// an average, not a minimum), so the test checks the cut, not a level.
func TestGradient2CutsOnCapacityLoss(t *testing.T) {
	g, _ := NewGradient2(DefaultGradient2Config())
	wc := DefaultWindowedConfig()
	wc.MinWindow, wc.MaxWindow = 100*time.Millisecond, 100*time.Millisecond
	w, _ := NewWindowed(wc, g)
	lim, _ := NewLimiter(w)
	s := &service{capacity: 150, base: 10 * time.Millisecond}
	s.run(lim, 0, 30*time.Second)
	before := lim.Limit()
	if before <= 150 {
		t.Fatalf("limit %d after 30 s at capacity 150: want growth above 150", before)
	}
	s.capacity = 30
	s.run(lim, 30*time.Second, 5*time.Second)
	if after := lim.Limit(); after > before/2 {
		t.Errorf("limit %d 5 s after capacity fell from 150 to 30 (was %d): want at most %d", after, before, before/2)
	}
}
