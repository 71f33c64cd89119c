package topology

import "slices"

// Balancer picks the instance that receives an attempt.
type Balancer uint8

// Balancers.
const (
	RoundRobin Balancer = iota
	Random
	LeastOutstanding
	PowerOfTwo
)

// balancers is the one list of balancers, indexed by Balancer: its names
// (String, ParseBalancer, BalancerNames), validation (a Balancer outside
// it is an error) and selection (pick) all read it. A new balancer is one
// constant and one row.
var balancers = [...]struct {
	name string
	pick func(s *service) *instance // never called with fewer than 2 instances
}{
	RoundRobin:       {"round_robin", (*service).pickRoundRobin},
	Random:           {"random", (*service).pickRandom},
	LeastOutstanding: {"least_outstanding", (*service).pickLeastOutstanding},
	PowerOfTwo:       {"power_of_two", (*service).pickPowerOfTwo},
}

// known reports whether b is in the list of balancers.
func (b Balancer) known() bool { return int(b) < len(balancers) }

// String returns the balancer's name as written in experiment files.
func (b Balancer) String() string {
	if b.known() {
		return balancers[b].name
	}
	return "unknown"
}

// ParseBalancer returns the balancer with the given name.
func ParseBalancer(s string) (Balancer, bool) {
	i := slices.Index(BalancerNames(), s)
	return Balancer(i), i >= 0
}

// BalancerNames lists the balancers' names, in Balancer order.
func BalancerNames() []string {
	names := make([]string, len(balancers))
	for i, b := range balancers {
		names[i] = b.name
	}
	return names
}

// pick returns the instance that receives the next attempt, or nil if no
// instance is up. The configuration was validated: the balancer is known.
func (s *service) pick() *instance {
	if in := s.pickOnly(); in != nil {
		return in
	}
	if len(s.insts) == 1 {
		return nil
	}
	return balancers[s.cfg.Balancer].pick(s)
}

// pickOnly returns the service's only instance when it is usable (see
// service.only), nil otherwise: then pick decides. It inlines, where pick,
// with the balancer's call, does not: send tries it first, a call less on
// most attempts.
func (s *service) pickOnly() *instance {
	if in := s.only; in != nil && in.usable() {
		return in
	}
	return nil
}

// pickRoundRobin takes the next usable instance in turn.
func (s *service) pickRoundRobin() *instance {
	n := len(s.insts)
	for i := 0; i < n; i++ {
		in := s.insts[s.rr]
		s.rr = (s.rr + 1) % n
		if in.usable() {
			return in
		}
	}
	return nil
}

// pickRandom takes a usable instance at random.
func (s *service) pickRandom() *instance { return s.randomUp(s.rng.IntN(len(s.insts))) }

// pickLeastOutstanding takes the usable instance with the fewest
// outstanding attempts, ties going to the first from a rotating start.
func (s *service) pickLeastOutstanding() *instance {
	n := len(s.insts)
	var best *instance
	for i := 0; i < n; i++ {
		in := s.insts[(s.rr+i)%n]
		if in.usable() && (best == nil || in.outstanding < best.outstanding) {
			best = in
		}
	}
	s.rr = (s.rr + 1) % n
	return best
}

// pickPowerOfTwo draws two usable instances and takes the less loaded
// (Mitzenmacher's power of two choices).
func (s *service) pickPowerOfTwo() *instance {
	n := len(s.insts)
	a := s.randomUp(s.rng.IntN(n))
	b := s.randomUp(s.rng.IntN(n))
	if a == nil || b == nil {
		return a
	}
	if b.outstanding < a.outstanding {
		return b
	}
	return a
}

// randomUp returns the first instance that is up at or after index i
// (cyclically), so a down instance's share goes to its successor.
func (s *service) randomUp(i int) *instance {
	n := len(s.insts)
	for k := 0; k < n; k++ {
		if in := s.insts[(i+k)%n]; in.usable() {
			return in
		}
	}
	return nil
}

// usable reports whether callers may send to the instance: up, in
// rotation, ready and not ejected.
func (in *instance) usable() bool { return in.out == 0 }

// outBits are the reasons callers' balancers skip an instance, a bit
// each, so that usable, asked on every attempt, is one comparison where
// four flags took four (-5 M instructions in the retry storm, -3 M in
// mm10).
type outBits uint8

const (
	outDown    outBits = 1 << iota // crashed, until it restarts
	outParked                      // out of rotation by an instances action: drains, takes nothing new
	outUnready                     // fails its readiness probe
	outEjected                     // ejected by the callers' outlier detection
)

// mark sets (on) or clears reason b.
func (in *instance) mark(b outBits, on bool) {
	if on {
		in.out |= b
	} else {
		in.out &^= b
	}
}

// down reports that the instance has crashed and not yet restarted.
func (in *instance) down() bool { return in.out&outDown != 0 }

// parked reports that an instances action took it out of rotation.
func (in *instance) parked() bool { return in.out&outParked != 0 }

// ready reports that it passes its readiness probe.
func (in *instance) ready() bool { return in.out&outUnready == 0 }

// ejected reports that the callers' outlier detection ejected it.
func (in *instance) ejected() bool { return in.out&outEjected != 0 }
