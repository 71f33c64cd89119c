package wall

import (
	"context"
	"errors"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/retry"
)

// attemptFunc is the internal form of one attempt. It receives the attempt's
// context, the attempt's number (1 for the first) and the context's cancel
// function. When it returns keep true with a nil error, it has taken over the
// cancel function (the Transport cancels when the response body is closed).
type attemptFunc func(ctx context.Context, n int, cancel context.CancelFunc) (err error, keep bool)

// Do calls fn through the Caller's policies, outside in: load shedding by the
// context's priority, the bulkhead, the circuit breaker, the retry (with its
// budget), the per-attempt timeout, and fn itself. The context's deadline (or
// the slice of it that Config.Deadline allots) bounds every attempt and every
// wait, and a retry that cannot finish before it is not made. If the Caller
// has a fallback, a failed call is answered from it (see DoLevel), and Do
// returns nil when a degraded answer was served.
//
// fn must honour its context. Do returns nil on success and an *Error
// otherwise.
func (c *Caller) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	_, err := c.DoLevel(ctx, fn)
	return err
}

// DoLevel is Do that also reports the level of the degradation hierarchy the
// call was answered at: fallback.Fresh when fn succeeded; Stale, Generic or
// Empty when Fallback.Serve served a degraded answer (the error is then nil:
// a degraded answer is an answer, but not a plain success); FeatureError when
// every fallback level failed (the error is the main path's). Without a
// fallback it reports Fresh or SystemError.
func (c *Caller) DoLevel(ctx context.Context, fn func(ctx context.Context) error) (fallback.Level, error) {
	var serve func(context.Context, fallback.Level, error) error
	if c.fb != nil {
		serve = c.fb.Serve
	}
	return c.doLevel(ctx, fn, serve)
}

// doLevel is DoLevel with the fallback's Serve given (nil: no level answers).
func (c *Caller) doLevel(ctx context.Context, fn func(ctx context.Context) error, serveFn func(context.Context, fallback.Level, error) error) (fallback.Level, error) {
	if c.feature == nil {
		if err := c.run(ctx, fn, nil, nil); err != nil {
			return fallback.SystemError, err
		}
		return fallback.Fresh, nil
	}
	var cached fallback.Cached
	if c.fb.Cached != nil {
		cached = c.fb.Cached(ctx)
	}
	now := c.clock.Now()
	c.mu.Lock()
	att := c.feature.Begin(now, cached)
	c.mu.Unlock()

	var cause error = &Error{Outcome: policies.Cancelled, Err: ErrKilled}
	level := att.Level()
	if level == fallback.Fresh {
		cause = c.run(ctx, fn, nil, nil)
		if cause == nil {
			c.serve(att)
			return fallback.Fresh, nil
		}
		level = att.Fail()
	}
	for level == fallback.Stale || level == fallback.Generic || level == fallback.Empty {
		if serveFn != nil && serveFn(ctx, level, cause) == nil {
			c.serve(att)
			return level, nil
		}
		level = att.Fail()
	}
	c.serve(att)
	return level, cause
}

// serve counts the answer at a's level and reports an alert change.
func (c *Caller) serve(a fallback.Attempt) {
	now := c.clock.Now()
	c.mu.Lock()
	ch := c.feature.Serve(now, a)
	c.mu.Unlock()
	if ch.Changed() && c.onAlert != nil {
		c.onAlert(ch)
	}
}

// run is the call path without the fallback. Exactly one of fn and afn is
// non-nil. A non-nil noRetry refuses every retry (ReasonNotIdempotent) and is
// reported as the cause.
func (c *Caller) run(ctx context.Context, fn func(context.Context) error, afn attemptFunc, noRetry error) error {
	err := c.path(ctx, fn, afn, noRetry)
	if err != nil && c.hooks.Rejected != nil {
		if e, ok := err.(*Error); ok {
			if r := rejectionOf(e); r != nil {
				o := e.Outcome
				if r == ErrBudgetExhausted {
					o = policies.Rejected
				}
				c.hooks.rejected(c.clock.Now(), r, o)
			}
		}
	}
	return err
}

// path is run without the hook.
func (c *Caller) path(ctx context.Context, fn func(context.Context) error, afn attemptFunc, noRetry error) error {
	if err := ctx.Err(); err != nil {
		return &Error{Outcome: ctxOutcome(ctx), Err: err}
	}
	start := c.clock.Now()

	// The request's deadline, possibly shortened to this call's slice.
	var dl deadline.Deadline
	if t, ok := ctx.Deadline(); ok {
		dl = deadline.At(c.clock.Instant(t))
	}
	parentDL := dl
	if c.deadline != nil {
		child, ok := c.deadline.Propagate(dl, start, c.class)
		if !ok {
			return &Error{Outcome: policies.DeadlineExceeded, Err: context.DeadlineExceeded}
		}
		dl = dl.Earlier(child)
	}
	if dl.Expired(start) {
		return &Error{Outcome: policies.DeadlineExceeded, Err: context.DeadlineExceeded}
	}
	if at, ok := dl.Expiry(); ok && dl != parentDL {
		var cancel context.CancelFunc
		ctx, cancel = c.clock.WithDeadline(ctx, at)
		defer cancel()
	}

	// Load shedding, then the bulkhead.
	if err := c.admit(ctx, start); err != nil {
		return err
	}
	defer c.leave()
	if c.bulk == nil {
		_, err := c.attempts(ctx, start, dl, fn, afn, noRetry)
		return err
	}
	if err := c.acquire(ctx, start, dl); err != nil {
		return err
	}
	released := false
	defer func() {
		if !released { // fn panicked: free the slot all the same
			c.release(c.clock.Now())
		}
	}()
	end, err := c.attempts(ctx, start, dl, fn, afn, noRetry)
	released = true
	c.release(end)
	return err
}

// admit applies load shedding at instant now and counts the call in flight.
func (c *Caller) admit(ctx context.Context, now time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shedder != nil {
		d := c.shedder.Admit(now, PriorityFrom(ctx), c.inFlight, c.shedCap)
		if !d.Admitted {
			return &Error{Outcome: policies.Rejected, Err: &RejectedError{Local: true, StatusCode: d.Status, RetryAfter: d.RetryAfter}}
		}
	}
	c.inFlight++
	return nil
}

// leave counts the call out of flight.
func (c *Caller) leave() {
	c.mu.Lock()
	c.inFlight--
	c.mu.Unlock()
}

// acquire takes a bulkhead slot, waiting for one if the bulkhead allows,
// until the slot is granted, the wait runs out or ctx is done.
func (c *Caller) acquire(ctx context.Context, now time.Duration, dl deadline.Deadline) error {
	until := bulkhead.NoDeadline
	if at, ok := dl.Expiry(); ok {
		until = at
	}
	c.mu.Lock()
	acq := c.bulk.Acquire(now, until)
	var granted chan struct{}
	switch acq.Decision {
	case bulkhead.Granted:
		c.mu.Unlock()
		return nil
	case bulkhead.Queued:
		granted = make(chan struct{})
		c.waiters[acq.Ticket] = granted
		c.mu.Unlock()
	default:
		c.mu.Unlock()
		return bulkheadRefusal(acq.Outcome())
	}

	expired := make(chan struct{})
	if acq.WaitUntil != bulkhead.NoDeadline { // a pool waits without a bound in time
		stop := c.clock.AfterFunc(acq.WaitUntil-now, func() { close(expired) })
		defer stop()
	}
	select {
	case <-granted:
		return nil
	case <-expired:
		now := c.clock.Now()
		c.mu.Lock()
		o, ok := c.bulk.Expire(now, acq.Ticket)
		if ok {
			delete(c.waiters, acq.Ticket)
		}
		c.mu.Unlock()
		if !ok { // granted just before the wait ran out: keep the slot
			return nil
		}
		return bulkheadRefusal(o, true)
	case <-ctx.Done():
		c.mu.Lock()
		ok := c.bulk.Cancel(acq.Ticket)
		if ok {
			delete(c.waiters, acq.Ticket)
		}
		c.mu.Unlock()
		if !ok { // granted just as the caller gave up: give the slot back
			c.release(c.clock.Now())
		}
		return &Error{Outcome: ctxOutcome(ctx), Err: ctx.Err()}
	}
}

// release frees a bulkhead slot at instant now and wakes the waiter it is
// handed to.
func (c *Caller) release(now time.Duration) {
	c.mu.Lock()
	g, ok := c.bulk.Release(now)
	var wake chan struct{}
	if ok {
		wake = c.waiters[g.Ticket]
		delete(c.waiters, g.Ticket)
	}
	c.mu.Unlock()
	if wake != nil {
		close(wake)
	}
}

// bulkheadRefusal turns a bulkhead refusal (the two results of
// Acquisition.Outcome or Expire) into an *Error.
func bulkheadRefusal(o policies.Outcome, _ bool) error {
	if o == policies.DeadlineExceeded {
		return &Error{Outcome: o, Err: context.DeadlineExceeded}
	}
	return &Error{Outcome: policies.BulkheadFull, Err: ErrBulkheadFull}
}

// attempts runs the breaker, retry and timeout layers around the call. With
// the breaker outside the retry loop (the default) it takes one permit for
// the whole loop and records the call's outcome once, with its latency from
// start, the call's start (a bulkhead wait included, as in the simulator).
// It returns the instant the call ended and its error. The clock is read
// once here, once per attempt and once at each attempt's end: each read
// costs tens of nanoseconds, a third of a successful call.
func (c *Caller) attempts(ctx context.Context, start time.Duration, dl deadline.Deadline, fn func(context.Context) error, afn attemptFunc, noRetry error) (time.Duration, error) {
	now := c.clock.Now()
	if c.breaker == nil || c.inside {
		return c.loop(ctx, dl, now, fn, afn, noRetry)
	}
	permit, ok := c.allow(now)
	if !ok {
		return now, &Error{Outcome: policies.CircuitOpen, Err: ErrCircuitOpen}
	}
	pending := true
	defer func() {
		// fn panicked: give the permit back, so that a half-open breaker
		// does not wait for this probe forever.
		if pending {
			c.recordCall(c.clock.Now(), permit, policies.Cancelled, 0)
		}
	}()
	end, err := c.loop(ctx, dl, now, fn, afn, noRetry)
	pending = false
	c.recordCall(end, permit, OutcomeOf(err), end-start)
	return end, err
}

// loop runs the retry loop: per attempt, the breaker when it is inside the
// loop, the per-attempt timeout and the call; then the retry decision. The
// first attempt starts at now, a fresh reading of the clock. It returns the
// instant the last attempt ended (or, if none could start, the instant it
// was refused) and the call's error.
func (c *Caller) loop(ctx context.Context, dl deadline.Deadline, now time.Duration, fn func(context.Context) error, afn attemptFunc, noRetry error) (time.Duration, error) {
	var (
		call    retry.Call
		n       int
		lastErr error
		permit  breaker.Permit
		held    bool           // a place in the concurrency retry budget
		paid    budget.Receipt // what the retry in flight paid the budget
	)
	perAttempt := c.breaker != nil && c.inside
	c.callStarted(now)
	if c.conc != nil {
		defer func() {
			if held {
				c.releaseRetrySlot()
			}
		}()
	}
	for ; ; now = c.clock.Now() {
		if perAttempt {
			var ok bool
			if permit, ok = c.allow(now); !ok {
				return now, &Error{Outcome: policies.CircuitOpen, Attempts: n, Reason: retry.ReasonNotRetryable, Err: ErrCircuitOpen, Last: lastErr}
			}
		}
		actx, cancel, err := c.attemptContext(ctx, dl, now)
		if err != nil {
			if perAttempt {
				c.recordAttempt(now, permit, policies.Cancelled, 0, budget.NoReceipt)
			}
			return now, &Error{Outcome: policies.DeadlineExceeded, Attempts: n, Reason: retry.ReasonDeadline, Err: err, Last: lastErr}
		}
		n++
		o, end, err := c.attempt(ctx, actx, cancel, n, fn, afn, permit, paid, now)
		if o == policies.Success {
			return end, nil
		}
		lastErr = err

		// Retry.
		switch {
		case c.retry == nil:
			return end, &Error{Outcome: o, Attempts: n, Reason: retry.ReasonExhausted, Err: err}
		case noRetry != nil:
			return end, &Error{Outcome: o, Attempts: n, Reason: retry.ReasonNotIdempotent, Err: err, Last: noRetry}
		}
		d := c.decide(end, call, o, dl, err, &held, &paid)
		if !d.Retry {
			return end, &Error{Outcome: o, Attempts: n, Reason: d.Reason, Err: err}
		}
		call = d.Next
		if err := c.sleep(ctx, d.At); err != nil {
			return c.clock.Now(), &Error{Outcome: ctxOutcome(ctx), Attempts: n, Reason: retry.ReasonDeadline, Err: err, Last: lastErr}
		}
	}
}

// attempt makes attempt n, started at now under actx, and records its
// outcome (in the retry budget; in the breaker when it is inside the retry
// loop, with permit). It returns the outcome, the instant the attempt ended
// and fn's error.
func (c *Caller) attempt(ctx, actx context.Context, cancel context.CancelFunc, n int, fn func(context.Context) error, afn attemptFunc, permit breaker.Permit, paid budget.Receipt, now time.Duration) (policies.Outcome, time.Duration, error) {
	c.hooks.attemptStart(now, n)
	pending := c.breaker != nil && c.inside // permit taken and not yet recorded
	defer func() {
		if pending { // fn panicked: give the permit back
			c.recordAttempt(c.clock.Now(), permit, policies.Cancelled, 0, paid)
		}
	}()
	var err error
	keep := false
	if fn != nil {
		err = fn(actx)
	} else {
		err, keep = afn(actx, n, cancel)
	}
	end := c.clock.Now()
	o := c.outcome(ctx, actx, err)
	if !(keep && o == policies.Success) {
		cancel()
	}
	pending = false
	c.recordAttempt(end, permit, o, end-now, paid)
	c.hooks.attemptEnd(AttemptEnd{At: end, N: n, Outcome: o, Latency: end - now, Err: err})
	return o, end, err
}

// attemptContext returns the context of an attempt starting at now: its
// deadline is the earlier of the per-attempt timeout and dl. It returns
// context.DeadlineExceeded when no time is left for the attempt.
func (c *Caller) attemptContext(ctx context.Context, dl deadline.Deadline, now time.Duration) (context.Context, context.CancelFunc, error) {
	expiry, bounded := dl.Expiry()
	if c.timeout != nil {
		eff := c.timeout.Effective(now, dl.Instant())
		if eff <= 0 {
			return nil, nil, context.DeadlineExceeded
		}
		if !bounded || now+eff < expiry {
			expiry, bounded = now+eff, true
		}
	}
	if at, ok := ctxExpiry(ctx, c.clock); bounded && (!ok || expiry < at) {
		actx, cancel := c.clock.WithDeadline(ctx, expiry)
		return actx, cancel, nil
	}
	return ctx, nop, nil
}

func nop() {}

// ctxExpiry returns the instant of ctx's deadline.
func ctxExpiry(ctx context.Context, clock Clock) (time.Duration, bool) {
	t, ok := ctx.Deadline()
	if !ok {
		return 0, false
	}
	return clock.Instant(t), true
}

// allow asks the breaker for a permit at now.
func (c *Caller) allow(now time.Duration) (permit breaker.Permit, ok bool) {
	if c.breaker == nil {
		return permit, true
	}
	c.mu.Lock()
	tr, changed := c.breaker.Refresh(now)
	permit, ok = c.breaker.Allow(now)
	c.mu.Unlock()
	c.notifyTransition(tr, changed)
	return permit, ok
}

// recordAttempt feeds an attempt's outcome to the retry budget, to a
// breaker for retries only and, when it sits inside the retry loop, to the
// breaker.
func (c *Caller) recordAttempt(now time.Duration, permit breaker.Permit, o policies.Outcome, latency time.Duration, paid budget.Receipt) {
	perAttempt := c.breaker != nil && c.inside
	if !perAttempt && c.gate == nil && (c.budget == nil || o != policies.Success) {
		return
	}
	c.mu.Lock()
	if c.budget != nil && o == policies.Success {
		c.budget.Deposit(now, paid != budget.NoReceipt, paid)
	}
	if c.gate != nil {
		c.gate.Record(now, o)
	}
	if !perAttempt {
		c.mu.Unlock()
		return
	}
	t, changed := c.breaker.Record(now, permit, o, latency)
	c.mu.Unlock()
	c.notifyTransition(t, changed)
}

// recordCall feeds a whole call's outcome to a breaker outside the retry
// loop.
func (c *Caller) recordCall(now time.Duration, permit breaker.Permit, o policies.Outcome, latency time.Duration) {
	c.mu.Lock()
	t, changed := c.breaker.Record(now, permit, o, latency)
	c.mu.Unlock()
	c.notifyTransition(t, changed)
}

// decide asks the retry policy, then a breaker for retries only, then the
// budget, whether to retry (as sim/topology's afterFailure does).
func (c *Caller) decide(now time.Duration, call retry.Call, o policies.Outcome, dl deadline.Deadline, err error, held *bool, paid *budget.Receipt) retry.Decision {
	var hint time.Duration
	if rej, ok := errors.AsType[*RejectedError](err); ok && o == policies.Rejected {
		hint = rej.RetryAfter
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.retry.DecideAfter(now, call, o, dl.Instant(), c.rng.Float64(), hint)
	if d.Retry && c.gate != nil && !c.gate.AllowRetry(now) {
		d = d.Deny(retry.ReasonBreaker)
	}
	if d.Retry && c.budget != nil {
		var ok bool
		if ok, *paid = c.budget.Withdraw(now, o); !ok {
			d = d.Deny(retry.ReasonBudget)
		}
	}
	if c.conc != nil {
		// The previous retry, if this call made one, has ended.
		if *held {
			c.conc.Release()
			*held = false
		}
		if d.Retry {
			if c.conc.TryAcquire(c.inFlight) {
				*held = true
			} else {
				d = d.Deny(retry.ReasonBudget)
			}
		}
	}
	return d
}

// releaseRetrySlot gives back a call's place in the concurrency retry
// budget.
func (c *Caller) releaseRetrySlot() {
	c.mu.Lock()
	c.conc.Release()
	c.mu.Unlock()
}

// sleep waits until instant at, or until ctx is done (then it returns
// ctx.Err()).
func (c *Caller) sleep(ctx context.Context, at time.Duration) error {
	d := at - c.clock.Now()
	if d <= 0 {
		return ctx.Err()
	}
	done := make(chan struct{})
	stop := c.clock.AfterFunc(d, func() { close(done) })
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
}

// outcome classifies an attempt: by its context first (a done context means
// the attempt timed out or was cancelled), then by the classifier.
func (c *Caller) outcome(parent, actx context.Context, err error) policies.Outcome {
	if err == nil {
		return policies.Success
	}
	if actx.Err() != nil {
		if errors.Is(parent.Err(), context.Canceled) {
			return policies.Cancelled
		}
		return policies.Timeout
	}
	return c.classify(err)
}

// ctxOutcome is the outcome of a call whose context is done: Cancelled or
// DeadlineExceeded.
func ctxOutcome(ctx context.Context) policies.Outcome {
	if errors.Is(ctx.Err(), context.Canceled) {
		return policies.Cancelled
	}
	return policies.DeadlineExceeded
}

// callStarted tells the retry budget a call begins (a per-call bucket
// earns then).
func (c *Caller) callStarted(now time.Duration) {
	if c.budget == nil {
		return
	}
	c.mu.Lock()
	c.budget.CallStarted(now)
	c.mu.Unlock()
}
