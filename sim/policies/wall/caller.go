package wall

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/timeout"
)

// Caller is the call path for one (dependency, operation) pair: the
// configured policies around every call made through Do, in the order load
// shedding, bulkhead, circuit breaker, retry, timeout, call. It is safe for
// concurrent use: one mutex serialises access to the policy state machines,
// and it is never held while fn, a fallback or an observer runs.
type Caller struct {
	clock    Clock
	classify func(error) policies.Outcome
	onTrans  func(breaker.Transition)
	onAlert  func(fallback.AlertChange)
	hooks    Hooks
	inside   bool // breaker inside the retry loop

	// Immutable policies, safe without the mutex.
	retry    *retry.Policy
	timeout  *timeout.Policy
	deadline *deadline.Policy
	class    deadline.Class
	fb       *Fallback

	mu       sync.Mutex
	rng      *rand.Rand
	shedder  *shed.Shedder
	shedCap  int
	inFlight int
	bulk     slots
	waiters  map[bulkhead.Ticket]chan struct{}
	breaker  *breaker.Breaker
	gate     *breaker.RetryGate // Placement RetriesOnly
	budget   budget.Quota       // any token kind, nil without one
	conc     *budget.Concurrency
	feature  *fallback.Feature
}

// New validates cfg, builds its policies and returns a Caller, or an error
// wrapping ErrInvalidConfig or the failing policy's own error.
func New(cfg Config) (*Caller, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Caller{
		clock:    cfg.Clock,
		classify: cfg.Classify,
		onTrans:  cfg.OnBreakerTransition,
		onAlert:  cfg.OnFallbackAlert,
		class:    cfg.Class,
		fb:       cfg.Fallback,
		rng:      cfg.Rand,
		shedCap:  cfg.ShedCapacity,
		hooks:    cfg.Hooks,
		inside:   cfg.Placement == InsideRetry,
	}
	if c.clock == nil {
		c.clock = NewMonotonicClock()
	}
	if c.classify == nil {
		c.classify = Classify
	}
	var err error
	if c.rng, err = seededRand(c.rng, "backoff jitter"); err != nil {
		return nil, err
	}
	if err := c.buildGuards(&cfg); err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	if err := c.buildAttempts(&cfg); err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	return c, nil
}

// Clock returns the Caller's clock.
func (c *Caller) Clock() Clock { return c.clock }

// InFlight returns the number of calls admitted by load shedding (or, without
// it, started) and not yet finished.
func (c *Caller) InFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inFlight
}

// BreakerState returns the circuit breaker's state now; ok is false if the
// Caller has no breaker.
func (c *Caller) BreakerState() (s breaker.State, ok bool) {
	if c.breaker == nil {
		return 0, false
	}
	now := c.clock.Now()
	c.mu.Lock()
	tr, changed := c.breaker.Refresh(now)
	s = c.breaker.State(now)
	c.mu.Unlock()
	c.notifyTransition(tr, changed)
	return s, true
}

// BudgetTokens returns the retry budget's tokens; ok is false if the Caller
// has no budget.
func (c *Caller) BudgetTokens() (tokens float64, ok bool) {
	if c.budget == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.budget.Tokens(), true
}

// Kill turns the fallback feature off (its kill switch) for the given
// reason: calls are answered from the fallback without calling the
// dependency. ok is false if the Caller has no fallback.
func (c *Caller) Kill(reason string) (ch fallback.KillChange, ok bool) {
	if c.feature == nil {
		return ch, false
	}
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.feature.Kill(now, reason), true
}

// Revive turns the fallback feature back on. ok is false if the Caller has
// no fallback.
func (c *Caller) Revive(reason string) (ch fallback.KillChange, ok bool) {
	if c.feature == nil {
		return ch, false
	}
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.feature.Revive(now, reason), true
}

// FallbackStats returns the per-level answer counters of the fallback; ok is
// false if the Caller has no fallback.
func (c *Caller) FallbackStats() (s fallback.Stats, ok bool) {
	if c.feature == nil {
		return s, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.feature.Stats(), true
}

func (c *Caller) notifyTransition(tr breaker.Transition, ok bool) {
	if !ok {
		return
	}
	if c.onTrans != nil {
		c.onTrans(tr)
	}
	if c.hooks.BreakerTransition != nil {
		c.hooks.BreakerTransition(tr)
	}
}

// slots is what the call path needs of a bulkhead: both flavours (Semaphore
// and Pool) have these methods.
type slots interface {
	Acquire(now, deadline time.Duration) bulkhead.Acquisition
	Release(now time.Duration) (bulkhead.Grant, bool)
	Cancel(t bulkhead.Ticket) bool
	Expire(now time.Duration, t bulkhead.Ticket) (policies.Outcome, bool)
	InUse() int
	Waiting() int
}
