package lint

import (
	"strconv"

	"github.com/ressim/ressim/sim/topology"
)

// service checks a service's queue and probes (RS012 to RS015).
func (c *checker) service(i int) {
	s := &c.m.Services[i]
	key := "service." + strconv.Itoa(i)
	a := s.Admission
	ageOrPriority := a.Shed != nil || a.CoDel != nil || a.LIFO != nil || s.Abandonment == topology.OnExpiry
	switch {
	case s.QueueCapacity < 0:
		c.add("RS012", key+".queue_capacity", "service %q has an unbounded queue", s.Name)
	case s.QueueCapacity > 0 && !ageOrPriority:
		c.add("RS013", key+".queue_capacity", "service %q queues up to %d requests per instance with no shedding by age or priority", s.Name, s.QueueCapacity)
	}
	if r := s.Guards.Readiness; r != nil {
		for _, d := range r.DependsOn {
			if !c.callsCritically(i, d) {
				c.add("RS014", key+".readiness.depends_on", "service %q's readiness depends on %q, which it does not call as a critical dependency", s.Name, d)
			}
		}
	}
	if s.Guards.Liveness != nil && (s.QueueCapacity != 0 && !ageOrPriority) {
		c.add("RS015", key+".liveness", "service %q's liveness probe waits in a queue with no shedding by age: a surge can fail it and restart instances under load", s.Name)
	}
}

// callsCritically reports whether service svc has a critical call to dep.
func (c *checker) callsCritically(svc int, dep string) bool {
	for _, s := range allSites(c.m) {
		if s.svc == svc && s.call.Service == dep && s.call.Critical {
			return true
		}
	}
	return false
}

// propagation checks RS003: user deadlines exist, requests go deeper than
// one service, and the deadlines are not propagated.
func (c *checker) propagation() {
	if c.m.PropagateDeadlines {
		return
	}
	deep := false
	for _, p := range c.w.paths {
		deep = deep || len(p.Hops) > 2
	}
	for i, cl := range c.m.Clients {
		if cl.Deadline.Mean() > 0 && deep {
			c.add("RS003", "client."+strconv.Itoa(i)+".deadline", "client %q has a deadline of %v, but propagate_deadlines is off: services below %q do not know it", cl.Name, cl.Deadline.Mean(), cl.Target)
			return
		}
	}
}
