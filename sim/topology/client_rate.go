package topology

import (
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// OpenRequests is the expected number of requests an open-loop client
// sends in [0, d): the integral of the rate function the model itself
// runs (its schedule, stepwise or linear, or its rate as timed actions
// change it, times the load faults that target it), so that a burst counts for its real length and not as a
// peak held for the whole run. It is 0 for a closed-loop client, whose
// requests depend on the answers' latency.
func (c *ClientConfig) OpenRequests(faults []FaultConfig, actions []ActionConfig, d time.Duration) float64 {
	if c.Users > 0 || d <= 0 {
		return 0
	}
	end := engine.Time(d)
	var n float64
	for _, s := range rateSegments(c, faults, actions) {
		if s.from >= end {
			break
		}
		to := min(s.to, end)
		span := float64(to.Sub(s.from)) / float64(time.Second)
		r1 := s.r1
		if s.to != engine.MaxTime && s.to > s.from && to < s.to {
			// a linear segment cut at the end: its rate there
			r1 = s.r0 + (s.r1-s.r0)*float64(to.Sub(s.from))/float64(s.to.Sub(s.from))
		}
		n += span * (s.r0 + r1) / 2
	}
	return n
}
