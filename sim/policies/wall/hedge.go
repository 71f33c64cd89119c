package wall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
)

// HedgeConfig configures a Hedger.
type HedgeConfig struct {
	// Hedge is the hedging policy: copies, delay, non-fatal outcomes,
	// initial requests, additional chance, hedging on per-try timeouts.
	// Required: start from hedge.DefaultConfig and set Delay (the
	// dependency's p95 latency, say).
	Hedge hedge.Config
	// PerTryTimeout is the timeout of one copy; 0 (the default) means
	// none. When it fires, the copy is cancelled and counts as a Timeout,
	// or, with Hedge.OnPerTryTimeout, stays in flight while the next copy
	// is sent alongside it. Must be >= 0.
	PerTryTimeout time.Duration
	// Budget, if not nil, is a retry budget (package budget's token
	// bucket) that the hedges draw on, as gRPC's hedges draw on its
	// retryThrottling bucket: each hedge (every copy but a call's first)
	// spends a token, a refused hedge throttles the call (it sends no
	// further copy), and each successful call deposits. Default nil: no
	// budget.
	Budget *budget.Config
	// Clock supplies instants and timers. Default NewMonotonicClock().
	Clock Clock
	// Rand supplies the variate for Hedge.AdditionalChance. Default a
	// ChaCha8 seeded from crypto/rand.
	Rand *rand.Rand
	// Classify maps a copy's error to its outcome, for errors of copies
	// whose call context is live. Default Classify.
	Classify func(error) policies.Outcome
}

// Hedger sends hedged copies of calls (package hedge) with real timers. It
// is safe for concurrent use: one mutex guards the random generator and the
// budget, and it is never held while fn runs.
type Hedger struct {
	pol      *hedge.Policy // immutable
	clock    Clock
	classify func(error) policies.Outcome
	perTry   time.Duration

	mu  sync.Mutex
	rng *rand.Rand
	bud *budget.Bucket
}

// NewHedger validates cfg and returns a Hedger, or an error wrapping
// ErrInvalidConfig or the policy's own error.
func NewHedger(cfg HedgeConfig) (*Hedger, error) {
	if cfg.PerTryTimeout < 0 {
		return nil, fmt.Errorf("%w: PerTryTimeout %v: must be >= 0", ErrInvalidConfig, cfg.PerTryTimeout)
	}
	pol, err := hedge.New(cfg.Hedge)
	if err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	h := &Hedger{pol: pol, clock: cfg.Clock, classify: cfg.Classify, perTry: cfg.PerTryTimeout, rng: cfg.Rand}
	if cfg.Budget != nil {
		if h.bud, err = budget.New(*cfg.Budget); err != nil {
			return nil, fmt.Errorf("wall: %w", err)
		}
	}
	if h.clock == nil {
		h.clock = NewMonotonicClock()
	}
	if h.classify == nil {
		h.classify = Classify
	}
	if h.rng, err = seededRand(h.rng, "hedge's generator"); err != nil {
		return nil, err
	}
	return h, nil
}

// Policy returns the Hedger's hedging policy.
func (h *Hedger) Policy() *hedge.Policy { return h.pol }

// hedgeEvent is a timer's message to Do: a hedge is due (copy < 0), or the
// per-try timeout of copy copy fired.
type hedgeEvent struct{ copy int }

// copyEnd is a copy's answer.
type copyEnd struct {
	copy int
	err  error
}

// Do calls fn hedged: it starts copies of the call as the policy says, each
// in its own goroutine under its own child context of ctx, arms a Clock
// timer for the next hedge (and, with PerTryTimeout, one per copy), and
// returns as soon as the call is decided: nil when a copy succeeded (the
// first success wins), or an *Error with the failure that ended it (the
// fatal failure, or the last of the non-fatal ones), Attempts the number of
// copies sent and Reason retry.ReasonBudget when the budget throttled the
// call (then errors.Is(err, ErrBudgetExhausted)). The losers' contexts are
// cancelled the moment the call is decided, and Do waits for every copy to
// return before it returns, so that no goroutine outlives the call: fn must
// honour its context.
//
// A copy whose error comes while ctx is done is Cancelled or
// DeadlineExceeded, which are always fatal; other errors are classified
// by Classify. fn may run several times at once, so it must be safe to
// repeat: hedge only idempotent operations.
func (h *Hedger) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return &Error{Outcome: ctxOutcome(ctx), Err: err}
	}
	n := h.pol.MaxCopies()
	cctx, cancelAll := context.WithCancel(ctx)
	var (
		wg      sync.WaitGroup
		cancels []context.CancelFunc
		running []bool
		stops   []func() bool
		ends    = make(chan copyEnd, n)
		events  = make(chan hedgeEvent, 2*n+1) // at most n per-try timeouts and n hedge timers
		armed   = hedge.Never
		lastErr error
	)
	defer func() {
		cancelAll()
		for _, stop := range stops {
			stop()
		}
		wg.Wait()
	}()

	send := func(n int) {
		for range n {
			i := len(cancels)
			actx, cancel := context.WithCancel(cctx)
			cancels = append(cancels, cancel)
			running = append(running, true)
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := fn(actx)
				ends <- copyEnd{i, err}
			}()
			if h.perTry > 0 {
				stops = append(stops, h.clock.AfterFunc(h.perTry, func() { events <- hedgeEvent{i} }))
			}
		}
	}
	arm := func(now, at time.Duration) {
		if at == hedge.Never || at == armed {
			return
		}
		armed = at
		if at <= now {
			events <- hedgeEvent{-1}
			return
		}
		stops = append(stops, h.clock.AfterFunc(at-now, func() { events <- hedgeEvent{-1} }))
	}

	now := h.clock.Now()
	h.mu.Lock()
	d := h.throttle(now, h.pol.Start(now, hedge.Call{}, h.rng.Float64()), policies.Cancelled)
	h.mu.Unlock()
	call := d.Next
	send(d.Send)
	arm(now, d.NextAt)
	for !call.Done() {
		o := policies.Cancelled // no copy outcome: nothing for the budget
		select {
		case e := <-ends:
			if !running[e.copy] {
				continue // cut by its per-try timeout and already counted
			}
			running[e.copy] = false
			cancels[e.copy]()
			o = h.copyOutcome(ctx, e.err)
			now = h.clock.Now()
			if o != policies.Success {
				lastErr = e.err
			}
			d = h.pol.Outcome(now, call, o)
		case ev := <-events:
			now = h.clock.Now()
			if ev.copy < 0 {
				d = h.pol.Due(now, call)
				break
			}
			if !running[ev.copy] {
				continue
			}
			d = h.pol.PerTryTimeout(now, call)
			if !d.Keep && d.Reason != hedge.ReasonIgnored {
				running[ev.copy] = false
				cancels[ev.copy]()
				lastErr = context.DeadlineExceeded
			}
		}
		if d.Hedges > 0 || o == policies.Success {
			h.mu.Lock()
			d = h.throttle(now, d, o)
			h.mu.Unlock()
		}
		call = d.Next
		send(d.Send)
		arm(now, d.NextAt)
	}
	if call.Outcome() == policies.Success {
		return nil
	}
	e := &Error{Outcome: call.Outcome(), Attempts: call.Sent(), Reason: retry.ReasonExhausted, Err: lastErr}
	if d.Reason == hedge.ReasonThrottled {
		e.Reason = retry.ReasonBudget
	}
	return e
}

// throttle feeds the budget, if any, with a copy's outcome o and lets at
// most as many of d's hedges go out as it has tokens for. h.mu is held.
func (h *Hedger) throttle(now time.Duration, d hedge.Decision, o policies.Outcome) hedge.Decision {
	if h.bud == nil {
		return d
	}
	if o == policies.Success {
		h.bud.RecordSuccess(now)
	}
	k := 0
	for k < d.Hedges && h.bud.TryRetry(now) {
		k++
	}
	return d.Limit(k)
}

// copyOutcome classifies a copy's answer: Success, the call's context's
// outcome if it is done, else the classifier's.
func (h *Hedger) copyOutcome(ctx context.Context, err error) policies.Outcome {
	switch {
	case err == nil:
		return policies.Success
	case ctx.Err() != nil:
		return ctxOutcome(ctx)
	}
	return h.classify(err)
}
