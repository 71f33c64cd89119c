package wall

import (
	"fmt"
	"slices"
	"sync"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/outlier"
)

// BalancerConfig configures a Balancer.
type BalancerConfig struct {
	// Hosts are the addresses ("host:port") of the cluster's hosts, at
	// least one, distinct. A Transport with the Balancer sends each
	// attempt to one of them (its URL's Host is replaced).
	Hosts []string
	// Outlier, if set, ejects failing hosts (package outlier, Envoy's
	// outlier detection): every attempt's outcome is fed to the detector,
	// ejected hosts are skipped, and the detector's interval sweep (which
	// returns hosts and runs success-rate detection) runs from a Clock
	// timer until Close. Its Rand, if needed, is then owned by the
	// Balancer. Nil means plain round robin.
	Outlier *outlier.Config
	// Clock is the source of time. Nil means NewMonotonicClock().
	Clock Clock
	// Hooks: OutlierEvent is called with every ejection, un-ejection and
	// overflow.
	Hooks Hooks
}

// Balancer picks a host for each attempt, round robin over the hosts that
// are not ejected, as the simulator's round-robin balancer does. It is safe
// for concurrent use; one mutex guards the detector.
type Balancer struct {
	clock Clock
	hooks Hooks
	hosts []string

	mu     sync.Mutex
	det    *outlier.Detector
	rr     int
	stop   func() bool
	closed bool
	events []outlier.Event
}

// NewBalancer validates cfg and returns a Balancer; with Outlier set its
// sweep timer is armed, so call Close when done with it.
func NewBalancer(cfg BalancerConfig) (*Balancer, error) {
	if len(cfg.Hosts) == 0 {
		return nil, fmt.Errorf("%w: Balancer without Hosts", ErrInvalidConfig)
	}
	for i, h := range cfg.Hosts {
		if h == "" || slices.Contains(cfg.Hosts[:i], h) {
			return nil, fmt.Errorf("%w: Balancer host %d %q is empty or repeated", ErrInvalidConfig, i, h)
		}
	}
	b := &Balancer{clock: cfg.Clock, hooks: cfg.Hooks, hosts: slices.Clone(cfg.Hosts)}
	if b.clock == nil {
		b.clock = NewMonotonicClock()
	}
	if cfg.Outlier != nil {
		det, err := outlier.New(*cfg.Outlier, len(b.hosts), b.clock.Now())
		if err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
		b.det = det
		b.mu.Lock()
		b.arm()
		b.mu.Unlock()
	}
	return b, nil
}

// arm schedules the detector's next sweep. Called with b.mu held; the
// timer's function runs later, in another goroutine or the one advancing a
// ManualClock, never here (NextTickAt is after now).
func (b *Balancer) arm() {
	d := b.det.NextTickAt() - b.clock.Now()
	b.stop = b.clock.AfterFunc(max(d, 1), b.tick)
}

// tick runs the detector's interval sweep and re-arms the timer.
func (b *Balancer) tick() {
	now := b.clock.Now()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.events = b.det.Tick(now, b.events[:0])
	evs := slices.Clone(b.events)
	b.arm()
	b.mu.Unlock()
	b.notify(evs...)
}

func (b *Balancer) notify(evs ...outlier.Event) {
	if b.hooks.OutlierEvent == nil {
		return
	}
	for _, ev := range evs {
		b.hooks.OutlierEvent(b.hosts[ev.Host], ev)
	}
}

// Close stops the sweep timer. The Balancer still picks hosts afterwards,
// but ejected hosts stay ejected.
func (b *Balancer) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	if b.stop != nil {
		b.stop()
	}
}

// Hosts returns the hosts, in the order given.
func (b *Balancer) Hosts() []string { return slices.Clone(b.hosts) }

// Pick returns the next host, round robin, skipping ejected ones; it
// returns ErrNoHost if every host is ejected.
func (b *Balancer) Pick() (i int, host string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(b.hosts)
	for k := range n {
		i = (b.rr + k) % n
		if b.det == nil || !b.det.Ejected(i) {
			b.rr = (i + 1) % n
			return i, b.hosts[i], nil
		}
	}
	return -1, "", ErrNoHost
}

// Record feeds the outcome of an attempt sent to host i to the outlier
// detector (a no-op without one).
func (b *Balancer) Record(i int, o policies.Outcome) {
	if b.det == nil {
		return
	}
	now := b.clock.Now()
	b.mu.Lock()
	ev, ok := b.det.Record(now, i, o)
	b.mu.Unlock()
	if ok {
		b.notify(ev)
	}
}

// Ejected reports whether host i is ejected.
func (b *Balancer) Ejected(i int) bool {
	if b.det == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.det.Ejected(i)
}
