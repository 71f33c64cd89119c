package topology

import (
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies"
)

// ClientConfig is a source of end-user requests: open-loop (Rate or
// Schedule) or closed-loop (Users).
type ClientConfig struct {
	// Name identifies the client; unique among clients.
	Name string
	// Target names the service the client calls; Operation names the call.
	Target, Operation string
	// Rate is the arrival rate of an open-loop Poisson client, requests
	// per second, when Schedule is empty.
	Rate float64
	// Schedule, if not empty, makes the rate vary over time: see
	// RatePoint. Rate is then ignored.
	Schedule []RatePoint
	// Linear interpolates the schedule linearly between points (a ramp);
	// otherwise each point's rate holds until the next point (steps).
	Linear bool
	// Users, if > 0, makes the client closed-loop: that many users, each
	// sending a request, waiting for its outcome, thinking for ThinkTime,
	// and sending again.
	Users int
	// ThinkTime is a closed-loop user's pause between requests.
	ThinkTime dist.Dist
	// Deadline is the user's patience: a request not answered within it
	// has failed, whatever comes later. The zero Dist means no deadline.
	Deadline dist.Dist
	// Call is how the client calls its target: timeout, retries, network.
	Call CallPolicy
	// Priority is the class of the client's requests; it travels with
	// them to every hop, where load shedding drops the lowest first.
	Priority policies.Priority
}

// RatePoint is a point of a rate schedule: from At on, the rate is Rate
// (requests per second), up to the next point. Points are in increasing
// order of At; the first is at 0.
type RatePoint struct {
	At   time.Duration
	Rate float64
}

func (c *ClientConfig) validate(svcs map[string]int) error {
	if _, ok := svcs[c.Target]; !ok {
		return bad("client %q targets unknown service %q", c.Name, c.Target)
	}
	switch {
	case c.Users > 0:
		if c.Users > MaxUsers {
			return bad("client %q: users must be at most %d", c.Name, MaxUsers)
		}
	case len(c.Schedule) > 0:
		for i, p := range c.Schedule {
			if !(p.Rate >= 0) || p.Rate > MaxRate || (i == 0 && p.At != 0) || (i > 0 && p.At < c.Schedule[i-1].At) {
				return bad("client %q: schedule points need rates in [0, %g] and non-decreasing times starting at 0", c.Name, MaxRate)
			}
		}
	default:
		if !(c.Rate > 0) || c.Rate > MaxRate {
			return bad("client %q: rate must be in (0, %g] requests/s, got %v", c.Name, MaxRate, c.Rate)
		}
	}
	if err := c.Call.validate(); err != nil {
		return bad("client %q: %v", c.Name, err)
	}
	if c.Priority >= policies.NumPriorities {
		return bad("client %q: unknown priority", c.Name)
	}
	return nil
}
