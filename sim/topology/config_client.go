package topology

import (
	"fmt"
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
	// per second, in (0, MaxRate], when Schedule is empty and Users 0.
	Rate float64
	// Schedule, if not empty, makes the rate vary over time: see
	// RatePoint. Rate is then ignored.
	Schedule []RatePoint
	// Linear interpolates the schedule linearly between points (a ramp);
	// otherwise each point's rate holds until the next point (steps).
	Linear bool
	// Users, if > 0, makes the client closed-loop: that many users (at
	// most MaxUsers), each sending a request, waiting for its outcome,
	// thinking for ThinkTime, and sending again. 0 means open loop (a file
	// writes that by leaving users out: it refuses users = 0); negative is
	// invalid.
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
// (requests per second, in [0, MaxRate]; 0 pauses the client), up to the
// next point. Points are in increasing
// order of At; the first is at 0.
type RatePoint struct {
	At   time.Duration
	Rate float64
}

func (c *ClientConfig) validate(svcs map[string]int) error {
	if _, ok := svcs[c.Target]; !ok {
		return bad("client %q targets unknown service %q", c.Name, c.Target)
	}
	if err := c.validateLoad(); err != nil {
		return bad("client %q: %v", c.Name, err)
	}
	if err := c.Call.validate(); err != nil {
		return bad("client %q: %v", c.Name, err)
	}
	if c.Priority >= policies.NumPriorities {
		return bad("client %q: unknown priority", c.Name)
	}
	return nil
}

// validateLoad checks the one way the client sends: users, a schedule or
// a rate, the first that is set.
func (c *ClientConfig) validateLoad() error {
	if err := SettingClientUsers.checkInt(c.Users); err != nil || c.Users > 0 {
		return err
	}
	if len(c.Schedule) == 0 {
		return SettingClientRate.check(c.Rate)
	}
	for i, p := range c.Schedule {
		if err := SettingScheduleRate.check(p.Rate); err != nil {
			return fmt.Errorf("schedule point %d: %v", i, err)
		}
		if (i == 0 && p.At != 0) || (i > 0 && p.At < c.Schedule[i-1].At) {
			return fmt.Errorf("schedule points need non-decreasing times starting at 0")
		}
	}
	return nil
}
