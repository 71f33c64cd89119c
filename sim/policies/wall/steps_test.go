package wall

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/retry"
)

var (
	errFail = errors.New("boom")
	// errCtx makes a scripted attempt return its context's error.
	errCtx = errors.New("return ctx.Err()")
)

// att is one scripted attempt: it advances the clock by lat, then returns
// err (errCtx: the attempt context's error, which must be set by then).
type att struct {
	lat time.Duration
	err error
}

var (
	ok   = att{}
	fail = att{err: errFail}
)

func rejected(hint time.Duration) att {
	return att{err: &RejectedError{StatusCode: 503, RetryAfter: hint}}
}

func hang(lat time.Duration) att { return att{lat: lat, err: errCtx} }

// script plays scripted attempts as a fn for Do, and records the deadline
// each attempt's context carried (-1: none).
type script struct {
	t         *testing.T
	clock     *ManualClock
	atts      []att
	n         int
	deadlines []time.Duration
}

func (s *script) fn(ctx context.Context) error {
	if s.n >= len(s.atts) {
		s.t.Errorf("unexpected attempt %d", s.n+1)
		return errFail
	}
	a := s.atts[s.n]
	s.n++
	if d, ok := ctx.Deadline(); ok {
		s.deadlines = append(s.deadlines, s.clock.Instant(d))
	} else {
		s.deadlines = append(s.deadlines, -1)
	}
	if a.lat > 0 {
		s.clock.Advance(a.lat)
	}
	if a.err == errCtx {
		if ctx.Err() == nil {
			s.t.Errorf("attempt %d: context not done after %v", s.n, a.lat)
		}
		return ctx.Err()
	}
	return a.err
}

// anyReason in a step means: do not check the reason.
const anyReason = retry.Reason(255)

// step is one call at instant at.
type step struct {
	at     time.Duration
	budget time.Duration // context deadline at+budget; 0: none; < 0: already passed
	prio   policies.Priority
	atts   []att
	want   policies.Outcome
	wantN  int           // attempts made
	reason retry.Reason  // why no more attempts (anyReason: not checked)
	state  breaker.State // breaker state after the call, if the Caller has one
	dls    []time.Duration
}

func newTestCaller(t *testing.T, cfg Config) (*Caller, *ManualClock) {
	t.Helper()
	clock := NewManualClock(0)
	return newTestCallerOn(t, clock, cfg), clock
}

func newTestCallerOn(t *testing.T, clock *ManualClock, cfg Config) *Caller {
	t.Helper()
	cfg.Clock = clock
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runSteps runs steps one after another on a fresh Caller built from cfg.
func runSteps(t *testing.T, c *Caller, clock *ManualClock, steps []step) {
	t.Helper()
	for i, st := range steps {
		clock.Set(st.at)
		ctx := WithPriority(context.Background(), st.prio)
		if st.budget != 0 {
			var cancel context.CancelFunc
			ctx, cancel = clock.WithDeadline(ctx, st.at+st.budget)
			defer cancel()
		}
		s := &script{t: t, clock: clock, atts: st.atts}
		err := c.Do(ctx, s.fn)
		where := fmt.Sprintf("step %d (at %v)", i, st.at)
		if got := OutcomeOf(err); got != st.want {
			t.Errorf("%s: outcome %v (%v), want %v", where, got, err, st.want)
		}
		if s.n != st.wantN {
			t.Errorf("%s: %d attempts made, want %d", where, s.n, st.wantN)
		}
		if s.n != len(st.atts) {
			t.Errorf("%s: %d of %d scripted attempts made", where, s.n, len(st.atts))
		}
		var e *Error
		if err != nil {
			if !errors.As(err, &e) {
				t.Fatalf("%s: error %T %v is not an *Error", where, err, err)
			}
			if e.Attempts != s.n {
				t.Errorf("%s: Error.Attempts %d, want %d", where, e.Attempts, s.n)
			}
			if st.reason != anyReason && e.Reason != st.reason {
				t.Errorf("%s: reason %v, want %v", where, e.Reason, st.reason)
			}
		}
		if got, has := c.BreakerState(); has && got != st.state {
			t.Errorf("%s: breaker %v, want %v", where, got, st.state)
		}
		if st.dls != nil && !slices.Equal(s.deadlines, st.dls) {
			t.Errorf("%s: attempt deadlines %v, want %v", where, s.deadlines, st.dls)
		}
		if n := c.InFlight(); n != 0 {
			t.Errorf("%s: %d calls in flight after Do returned", where, n)
		}
	}
}

func atts(a ...att) []att { return a }

func noBackoff(attempts int) *retry.Config {
	rc := retry.DefaultConfig()
	rc.MaxAttempts = attempts
	rc.Backoff = retry.BackoffNone
	return &rc
}

func TestRetrySteps(t *testing.T) {
	c, clock := newTestCaller(t, Config{Retry: noBackoff(3)})
	canceled := att{err: context.Canceled} // fn gave up while its context was live
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(ok), want: policies.Success, wantN: 1},
		{at: 1 * time.Second, atts: atts(fail, fail, ok), want: policies.Success, wantN: 3},
		{at: 2 * time.Second, atts: atts(fail, fail, fail), want: policies.Error, wantN: 3, reason: retry.ReasonExhausted},
		{at: 3 * time.Second, atts: atts(rejected(0), rejected(0), rejected(0)), want: policies.Rejected, wantN: 3, reason: retry.ReasonExhausted},
		{at: 4 * time.Second, atts: atts(canceled), want: policies.Cancelled, wantN: 1, reason: retry.ReasonNotRetryable},
		{at: 5 * time.Second, atts: atts(fail, rejected(0), ok), want: policies.Success, wantN: 3},
	})
}

func TestNoRetryPolicyMakesOneAttempt(t *testing.T) {
	c, clock := newTestCaller(t, Config{})
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonExhausted},
		{at: 1, atts: atts(ok), want: policies.Success, wantN: 1},
	})
}

func TestCustomClassifier(t *testing.T) {
	// A caller-supplied classifier: errFail is a rejection, and nothing
	// else is retryable.
	c, clock := newTestCaller(t, Config{
		Retry: noBackoff(2),
		Classify: func(err error) policies.Outcome {
			if errors.Is(err, errFail) {
				return policies.Rejected
			}
			return policies.Cancelled
		},
	})
	other := att{err: errors.New("other")}
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail, fail), want: policies.Rejected, wantN: 2, reason: retry.ReasonExhausted},
		{at: 1, atts: atts(other), want: policies.Cancelled, wantN: 1, reason: retry.ReasonNotRetryable},
	})
}

// testBreaker trips at 50 % failures over the last 4 calls, pauses 10 s
// (doubling up to 40 s) and admits one probe.
func testBreaker() *breaker.Config {
	bc := breaker.DefaultConfig()
	bc.SlidingWindowSize = 4
	bc.MinimumNumberOfCalls = 4
	bc.PermittedNumberOfCallsInHalfOpenState = 1
	bc.WaitDurationInOpenState = 10 * time.Second
	bc.MaxWaitDurationInOpenState = 40 * time.Second
	return &bc
}

func TestBreakerSteps(t *testing.T) {
	var trans []string
	c, clock := newTestCaller(t, Config{
		Breaker: testBreaker(),
		OnBreakerTransition: func(tr breaker.Transition) {
			trans = append(trans, fmt.Sprintf("%v %v->%v %v", tr.At, tr.From, tr.To, tr.Reason))
		},
	})
	s := time.Second
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(ok), want: policies.Success, wantN: 1, state: breaker.Closed},
		{at: 1 * s, atts: atts(ok), want: policies.Success, wantN: 1, state: breaker.Closed},
		{at: 2 * s, atts: atts(fail), want: policies.Error, wantN: 1, reason: anyReason, state: breaker.Closed},
		{at: 3 * s, atts: atts(fail), want: policies.Error, wantN: 1, reason: anyReason, state: breaker.Open},
		{at: 4 * s, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
		{at: 13*s - 1, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
		{at: 13 * s, atts: atts(fail), want: policies.Error, wantN: 1, reason: anyReason, state: breaker.Open},
		{at: 33*s - 1, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
		{at: 33 * s, atts: atts(ok), want: policies.Success, wantN: 1, state: breaker.Closed},
	})
	want := []string{
		"3s closed->open failure_rate",
		"13s open->half_open pause_elapsed",
		"13s half_open->open probe_failed",
		"33s open->half_open pause_elapsed",
		"33s half_open->closed probes_succeeded",
	}
	if !slices.Equal(trans, want) {
		t.Errorf("transitions\n%q\nwant\n%q", trans, want)
	}
}

func TestBreakerInsideRetryStopsRetries(t *testing.T) {
	// The breaker is inside the retry loop: it sees both failed attempts,
	// opens, and the third attempt is not made. The error says both.
	bc := testBreaker()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 2, 2
	c, clock := newTestCaller(t, Config{Breaker: bc, Retry: noBackoff(3), Placement: InsideRetry})
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail, fail), want: policies.CircuitOpen, wantN: 2, reason: retry.ReasonNotRetryable, state: breaker.Open},
		{at: 1, want: policies.CircuitOpen, wantN: 0, reason: anyReason, state: breaker.Open},
	})
	clock.Set(time.Hour)
	// At 1 h the pause is over: the probe fails and re-opens the breaker,
	// which then refuses the retry.
	err := c.Do(context.Background(), func(context.Context) error { return errFail })
	if !errors.Is(err, ErrCircuitOpen) || !errors.Is(err, errFail) {
		t.Errorf("err = %v: want it to wrap ErrCircuitOpen and the last attempt's error", err)
	}
}

func TestRetriesOnlyBreakerSteps(t *testing.T) {
	// jirfag's retry circuit breaker (breaker.RetryGate: 10 % of the
	// attempts of the last 200 ms): first attempts always go; a retry goes
	// only while fewer than 10 % of the window's attempts failed.
	ms := time.Millisecond
	gate := breaker.DefaultRetryGateConfig()
	c, clock := newTestCaller(t, Config{Retry: noBackoff(3), Placement: RetriesOnly, RetryBreaker: &gate})
	var steps []step
	for i := range 10 {
		steps = append(steps, step{at: time.Duration(i) * ms, atts: atts(ok), want: policies.Success, wantN: 1})
	}
	steps = append(steps,
		step{at: 10 * ms, atts: atts(fail, ok), want: policies.Success, wantN: 2},                         // 1 of 11 failed: retried
		step{at: 11 * ms, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonBreaker},  // 2 of 13: refused
		step{at: 300 * ms, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonBreaker}, // the first attempt goes; 1 of 1
		step{at: 301 * ms, atts: atts(ok), want: policies.Success, wantN: 1},                              // a first attempt is never refused
	)
	runSteps(t, c, clock, steps)
	if _, has := c.BreakerState(); has {
		t.Error("a breaker for retries only has no state to report")
	}
	if _, err := New(Config{Placement: RetriesOnly, RetryBreaker: &gate}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("RetriesOnly without Retry: %v, want ErrInvalidConfig", err)
	}
	if _, err := New(Config{Retry: noBackoff(3), Placement: RetriesOnly}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("RetriesOnly without RetryBreaker: %v, want ErrInvalidConfig", err)
	}
	if p, err := ParsePlacement("retries_only"); p != RetriesOnly || err != nil || p.String() != "retries_only" {
		t.Errorf("ParsePlacement(retries_only) = %v, %v", p, err)
	}
}

func TestBudgetSteps(t *testing.T) {
	c, clock := newTestCaller(t, Config{
		Retry:  noBackoff(3),
		Budget: budgetConfig(1, 0.5),
	})
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail, ok), want: policies.Success, wantN: 2},                                     // spends the token, deposits 0.5
		{at: 1 * time.Second, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonBudget}, // 0.5 < 1
		{at: 2 * time.Second, atts: atts(ok), want: policies.Success, wantN: 1},                             // 1.0
		{at: 3 * time.Second, atts: atts(fail, fail), want: policies.Error, wantN: 2, reason: retry.ReasonBudget},
	})
	if tok, _ := c.BudgetTokens(); tok != 0 {
		t.Errorf("tokens %v, want 0", tok)
	}
}

func TestTimeoutAndDeadlineSteps(t *testing.T) {
	ms := time.Millisecond
	c, clock := newTestCaller(t, Config{Retry: noBackoff(3), Timeout: timeoutConfig(60 * ms)})
	runSteps(t, c, clock, []step{
		// The attempt times out at 60 ms; a retry would end at 120 ms, after
		// the deadline at 100 ms, so it is not made.
		{at: 0, budget: 100 * ms, atts: atts(hang(60 * ms)), want: policies.Timeout, wantN: 1, reason: retry.ReasonDeadline, dls: []time.Duration{60 * ms}},
		{at: 1000 * ms, budget: time.Second, atts: atts(hang(60*ms), ok), want: policies.Success, wantN: 2, dls: []time.Duration{1060 * ms, 1120 * ms}},
		// The deadline has already passed: no attempt.
		{at: 3000 * ms, budget: -1, want: policies.DeadlineExceeded, wantN: 0, reason: anyReason},
		// No deadline: every attempt gets its 60 ms.
		{at: 4000 * ms, atts: atts(fail, fail, fail), want: policies.Error, wantN: 3, reason: retry.ReasonExhausted, dls: []time.Duration{4060 * ms, 4060 * ms, 4060 * ms}},
		// The deadline is shorter than the attempt's timeout: it bounds the
		// attempt.
		{at: 5000 * ms, budget: 30 * ms, atts: atts(hang(30 * ms)), want: policies.Timeout, wantN: 1, reason: retry.ReasonDeadline, dls: []time.Duration{5030 * ms}},
	})
}

func TestDeadlineSliceSteps(t *testing.T) {
	ms := time.Millisecond
	clock := NewManualClock(0)
	non := newTestCallerOn(t, clock, Config{Deadline: deadlineConfig(), Class: deadline.NonCritical})
	c := newTestCallerOn(t, clock, Config{Deadline: deadlineConfig(), Retry: noBackoff(2)})
	t.Run("non-critical", func(t *testing.T) {
		runSteps(t, non, clock, []step{
			{at: 0, atts: atts(ok), want: policies.Success, wantN: 1, dls: []time.Duration{80 * ms}},
			{at: 1000 * ms, budget: 100 * ms, atts: atts(ok), want: policies.Success, wantN: 1, dls: []time.Duration{1050 * ms}},
			{at: 2000 * ms, budget: 50 * ms, want: policies.DeadlineExceeded, wantN: 0, reason: anyReason},
			{at: 3000 * ms, budget: 200 * ms, atts: atts(hang(80 * ms)), want: policies.Timeout, wantN: 1, reason: anyReason, dls: []time.Duration{3080 * ms}},
		})
	})
	t.Run("critical", func(t *testing.T) {
		runSteps(t, c, clock, []step{
			{at: 4000 * ms, budget: time.Second, atts: atts(fail, ok), want: policies.Success, wantN: 2, dls: []time.Duration{4950 * ms, 4950 * ms}},
			{at: 5000 * ms, atts: atts(ok), want: policies.Success, wantN: 1, dls: []time.Duration{-1}},
		})
	})
}

func TestShedByPriority(t *testing.T) {
	// Capacity 2: with one call in flight (utilisation 0.5) Background is
	// shed and Normal admitted; with two (utilisation 1) even Critical is.
	c, _ := newTestCaller(t, Config{Shed: shedConfig(), ShedCapacity: 2})
	var got []string
	call := func(p policies.Priority, fn func(context.Context) error) {
		err := c.Do(WithPriority(context.Background(), p), fn)
		got = append(got, fmt.Sprintf("%v:%v", p, OutcomeOf(err)))
		var rej *RejectedError
		if OutcomeOf(err) == policies.Rejected && (!errors.As(err, &rej) || rej.StatusCode != 503 || rej.RetryAfter != time.Second) {
			t.Errorf("shed error %v: want a *RejectedError with 503 and Retry-After 1s", err)
		}
	}
	okFn := func(context.Context) error { return nil }
	call(policies.Normal, func(context.Context) error {
		call(policies.Background, okFn)
		call(policies.Normal, func(context.Context) error {
			call(policies.Critical, okFn)
			return nil
		})
		return nil
	})
	want := []string{"background:rejected", "critical:rejected", "normal:success", "normal:success"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if c.InFlight() != 0 {
		t.Errorf("InFlight %d after all calls", c.InFlight())
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want policies.Outcome
	}{
		{nil, policies.Success},
		{errFail, policies.Error},
		{&RejectedError{StatusCode: 429}, policies.Rejected},
		{fmt.Errorf("wrapped: %w", &RejectedError{}), policies.Rejected},
		{context.DeadlineExceeded, policies.Timeout},
		{timeoutErr{}, policies.Timeout},
		{context.Canceled, policies.Cancelled},
		{fmt.Errorf("wrapped: %w", context.DeadlineExceeded), policies.Timeout},
		{fmt.Errorf("wrapped: %w", context.Canceled), policies.Cancelled},
		{ErrNoHost, policies.Rejected},
		{fmt.Errorf("wrapped: %w", ErrNoHost), policies.Rejected},
		{&Error{Outcome: policies.CircuitOpen, Err: ErrCircuitOpen}, policies.Error}, // a callee's open breaker is its failure
		{&Error{Outcome: policies.Rejected, Err: &RejectedError{}}, policies.Rejected},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
	if OutcomeOf(nil) != policies.Success || OutcomeOf(&Error{Outcome: policies.BulkheadFull}) != policies.BulkheadFull || OutcomeOf(errFail) != policies.Error {
		t.Error("OutcomeOf")
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string { return "i/o timeout" }
func (timeoutErr) Timeout() bool { return true }

func TestErrorText(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Outcome: policies.CircuitOpen, Err: ErrCircuitOpen}, "wall: circuit open"},
		{&Error{Outcome: policies.BulkheadFull, Err: ErrBulkheadFull}, "wall: bulkhead full"},
		{&Error{Outcome: policies.Error, Attempts: 1, Err: errFail}, "wall: error after 1 attempt: boom"},
		{&Error{Outcome: policies.CircuitOpen, Attempts: 2, Err: ErrCircuitOpen, Last: errFail}, "wall: circuit open after 2 attempts (last attempt: boom)"},
		{&Error{Outcome: policies.Rejected, Err: &RejectedError{StatusCode: 503, RetryAfter: time.Second}}, "wall: rejected with status 503, retry after 1s"},
		{&Error{Outcome: policies.Rejected, Err: &RejectedError{Local: true, StatusCode: 503, RetryAfter: time.Second}}, "wall: shed with status 503, retry after 1s"},
		{&Error{Outcome: policies.Timeout, Attempts: 2, Reason: retry.ReasonBudget, Err: context.DeadlineExceeded}, "wall: timeout after 2 attempts, retry budget exhausted: context deadline exceeded"},
		{&Error{Outcome: policies.Error, Attempts: 2, Reason: retry.ReasonBudget, Err: errFail}, "wall: error after 2 attempts, retry budget exhausted: boom"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	if (&Error{}).Unwrap() != nil || len((&Error{Last: errFail}).Unwrap()) != 1 {
		t.Error("Unwrap of missing errors")
	}
}

func TestPanickingProbeGivesPermitBack(t *testing.T) {
	bc := testBreaker()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 1, 1
	c, clock := newTestCaller(t, Config{Breaker: bc, Bulkhead: oneSlot(0)})
	if err := c.Do(context.Background(), func(context.Context) error { return errFail }); OutcomeOf(err) != policies.Error {
		t.Fatal(err)
	}
	clock.Set(10 * time.Second) // the pause is over: one probe allowed
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("fn's panic was swallowed")
			}
		}()
		c.Do(context.Background(), func(context.Context) error { panic("probe crashed") })
	}()
	// The crashed probe gave its permit (and its bulkhead slot) back: the
	// next probe is admitted and closes the breaker.
	if err := c.Do(context.Background(), func(context.Context) error { return nil }); err != nil {
		t.Fatalf("probe after the crash: %v", err)
	}
	if s, _ := c.BreakerState(); s != breaker.Closed || c.InFlight() != 0 {
		t.Fatalf("breaker %v, in flight %d; want closed, 0", s, c.InFlight())
	}
}

// TestAWSQuotaSteps: the AWS SDKs' standard quota in a Caller, as
// budget.AWS's step table has it: a retry costs 5 of 12 tokens, a
// successful retry gives its cost back and every success 1 more, up to
// the capacity.
func TestAWSQuotaSteps(t *testing.T) {
	c, clock := newTestCaller(t, Config{
		Retry:    noBackoff(3),
		AWSQuota: &budget.AWSConfig{Capacity: 12, RetryCost: 5, TimeoutCost: 10, SuccessRefund: 1},
	})
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail, ok), want: policies.Success, wantN: 2},                                                    // 12 - 5, then + 5 + 1: 12 (capped)
		{at: 1 * time.Second, atts: atts(fail, fail, fail), want: policies.Error, wantN: 3, reason: retry.ReasonExhausted}, // 12 - 5 - 5: 2
		{at: 2 * time.Second, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonBudget},                // 2 < 5
		{at: 3 * time.Second, atts: atts(ok), want: policies.Success, wantN: 1},                                            // 2 + 1: 3
	})
	if tok, _ := c.BudgetTokens(); tok != 3 {
		t.Errorf("tokens %v, want 3", tok)
	}
}

// TestPerCallBudgetSteps: Brooker's per-call bucket in a Caller: each
// call earns 0.5 when it starts (at most 2), a retry needs more than one
// token and takes one.
func TestPerCallBudgetSteps(t *testing.T) {
	c, clock := newTestCaller(t, Config{
		Retry:         noBackoff(3),
		PerCallBudget: &budget.PerCallConfig{EarnPerCall: 0.5, Capacity: 2},
	})
	runSteps(t, c, clock, []step{
		{at: 0, atts: atts(fail, ok), want: policies.Success, wantN: 2},                                     // 2 (capped), retry: 1
		{at: 1 * time.Second, atts: atts(fail, ok), want: policies.Success, wantN: 2},                       // 1.5, retry: 0.5
		{at: 2 * time.Second, atts: atts(fail), want: policies.Error, wantN: 1, reason: retry.ReasonBudget}, // 1.0 is not more than 1
	})
	if tok, _ := c.BudgetTokens(); tok != 1 {
		t.Errorf("tokens %v, want 1", tok)
	}
	if _, err := New(Config{Retry: noBackoff(2), Budget: budgetConfig(1, 0.1), PerCallBudget: &budget.PerCallConfig{EarnPerCall: 0.1, Capacity: 5}}); !errors.Is(err, budget.ErrInvalidConfig) {
		t.Errorf("two budget kinds: %v, want budget.ErrInvalidConfig", err)
	}
}
