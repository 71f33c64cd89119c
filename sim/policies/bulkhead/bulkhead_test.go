package bulkhead

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

const ms = time.Millisecond

type op uint8

const (
	acquire op = iota // Acquire(at, in)
	release           // Release(at)
	expire            // Expire(at, ticket)
	cancel            // Cancel(ticket)
)

var opNames = [...]string{"acquire", "release", "expire", "cancel"}

// step is one row of a step table: at instant at, do op with input in (a
// deadline for acquire, a ticket for expire and cancel), and expect the
// result and the state after it.
type step struct {
	at      time.Duration
	op      op
	in      time.Duration
	want    Decision         // acquire
	wantT   Ticket           // acquire (Queued), release (granted), expire/cancel (unused)
	wantAt  time.Duration    // acquire: WaitUntil; release: Waited
	wantOK  bool             // release: a waiter got the slot; expire, cancel: removed
	wantO   policies.Outcome // expire
	inUse   int
	waiting int
}

// bulkhead is the interface Semaphore and Pool share, for the step tables.
type bulkhead interface {
	Acquire(now, deadline time.Duration) Acquisition
	Release(now time.Duration) (Grant, bool)
	Expire(now time.Duration, t Ticket) (policies.Outcome, bool)
	Cancel(t Ticket) bool
	InUse() int
	Waiting() int
}

func runSteps(t *testing.T, b bulkhead, steps []step) {
	t.Helper()
	for i, s := range steps {
		switch s.op {
		case acquire:
			a := b.Acquire(s.at, s.in)
			if a.Decision != s.want || (s.want == Queued && (a.Ticket != s.wantT || a.WaitUntil != s.wantAt)) {
				t.Fatalf("step %d: Acquire(%v, %v) = %+v, want %v ticket %d until %v", i, s.at, s.in, a, s.want, s.wantT, s.wantAt)
			}
		case release:
			g, ok := b.Release(s.at)
			if ok != s.wantOK || (ok && (g.Ticket != s.wantT || g.Waited != s.wantAt)) {
				t.Fatalf("step %d: Release(%v) = %+v, %v; want ticket %d waited %v, %v", i, s.at, g, ok, s.wantT, s.wantAt, s.wantOK)
			}
		case expire:
			o, ok := b.Expire(s.at, Ticket(s.in))
			if ok != s.wantOK || (ok && o != s.wantO) {
				t.Fatalf("step %d: Expire(%v, %d) = %v, %v; want %v, %v", i, s.at, s.in, o, ok, s.wantO, s.wantOK)
			}
		case cancel:
			if ok := b.Cancel(Ticket(s.in)); ok != s.wantOK {
				t.Fatalf("step %d: Cancel(%d) = %v, want %v", i, s.in, ok, s.wantOK)
			}
		}
		if b.InUse() != s.inUse || b.Waiting() != s.waiting {
			t.Fatalf("step %d (%s at %v): in use %d waiting %d, want %d, %d", i, opNames[s.op], s.at, b.InUse(), b.Waiting(), s.inUse, s.waiting)
		}
	}
}

const none = NoDeadline

func TestSemaphoreSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   SemaphoreConfig
		steps []step
	}{
		{"no wait: fail fast when full", SemaphoreConfig{MaxConcurrentCalls: 2}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Granted, inUse: 2},
			{at: 0, op: acquire, in: none, want: Full, inUse: 2},
			{at: 1, op: release, inUse: 1},
			{at: 1, op: acquire, in: none, want: Granted, inUse: 2},
			{at: 2, op: release, inUse: 1},
			{at: 2, op: release, inUse: 0},
			{at: 2, op: release, inUse: 0}, // release without a slot: no-op
		}},
		{"bounded wait, handed over in FIFO order", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 50 * ms}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 10 * ms, op: acquire, in: none, want: Queued, wantT: 1, wantAt: 60 * ms, inUse: 1, waiting: 1},
			{at: 20 * ms, op: acquire, in: none, want: Queued, wantT: 2, wantAt: 70 * ms, inUse: 1, waiting: 2},
			{at: 30 * ms, op: release, wantOK: true, wantT: 1, wantAt: 20 * ms, inUse: 1, waiting: 1},
			{at: 40 * ms, op: release, wantOK: true, wantT: 2, wantAt: 20 * ms, inUse: 1},
			{at: 60 * ms, op: expire, in: 1, wantOK: false, inUse: 1}, // stale timer of a granted waiter
			{at: 70 * ms, op: expire, in: 2, wantOK: false, inUse: 1},
			{at: 80 * ms, op: release, inUse: 0},
		}},
		{"the wait runs out: expire fails the waiter fast", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 50 * ms}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: 50 * ms, inUse: 1, waiting: 1},
			{at: 50 * ms, op: expire, in: 1, wantOK: true, wantO: policies.BulkheadFull, inUse: 1},
			{at: 50 * ms, op: expire, in: 1, wantOK: false, inUse: 1},
			{at: 60 * ms, op: release, inUse: 0},
		}},
		{"the deadline caps the wait and is rechecked", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 50 * ms}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: 20 * ms, want: Queued, wantT: 1, wantAt: 20 * ms, inUse: 1, waiting: 1},
			{at: 20 * ms, op: expire, in: 1, wantOK: true, wantO: policies.DeadlineExceeded, inUse: 1},
			{at: 30 * ms, op: acquire, in: 30 * ms, want: DeadlineExceeded, inUse: 1},
			{at: 30 * ms, op: acquire, in: 10 * ms, want: DeadlineExceeded, inUse: 1},
		}},
		{"release skips a waiter whose wait has run out", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 50 * ms}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: 50 * ms, inUse: 1, waiting: 1},
			{at: 40 * ms, op: acquire, in: none, want: Queued, wantT: 2, wantAt: 90 * ms, inUse: 1, waiting: 2},
			// The release comes before ticket 1's expiry event at 50 ms.
			{at: 50 * ms, op: release, wantOK: true, wantT: 2, wantAt: 10 * ms, inUse: 1},
			{at: 50 * ms, op: expire, in: 1, wantOK: true, wantO: policies.BulkheadFull, inUse: 1},
		}},
		{"release with only lapsed waiters frees the slot", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 50 * ms}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: 50 * ms, inUse: 1, waiting: 1},
			{at: 70 * ms, op: release, inUse: 0},
			{at: 70 * ms, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 71 * ms, op: expire, in: 1, wantOK: true, wantO: policies.BulkheadFull, inUse: 1},
		}},
		{"cancelled waiters are skipped", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: time.Second}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: time.Second, inUse: 1, waiting: 1},
			{at: 1, op: acquire, in: none, want: Queued, wantT: 2, wantAt: time.Second + 1, inUse: 1, waiting: 2},
			{at: 2, op: cancel, in: 1, wantOK: true, inUse: 1, waiting: 1},
			{at: 2, op: cancel, in: 1, wantOK: false, inUse: 1, waiting: 1},
			{at: 2, op: cancel, in: 99, wantOK: false, inUse: 1, waiting: 1},
			{at: 3, op: release, wantOK: true, wantT: 2, wantAt: 2, inUse: 1},
			{at: 4, op: cancel, in: 2, wantOK: false, inUse: 1},
		}},
		{"a newcomer queues behind older waiters", SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: time.Second}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: time.Second, inUse: 1, waiting: 1},
			{at: 5, op: release, wantOK: true, wantT: 1, wantAt: 5, inUse: 1},
			{at: 5, op: acquire, in: none, want: Queued, wantT: 2, wantAt: time.Second + 5, inUse: 1, waiting: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSemaphore(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			runSteps(t, s, tt.steps)
		})
	}
}

func TestPoolSteps(t *testing.T) {
	tests := []struct {
		name  string
		cfg   PoolConfig
		steps []step
	}{
		{"queue bounded in length", PoolConfig{MaxThreadPoolSize: 1, QueueCapacity: 2}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Queued, wantT: 1, wantAt: none, inUse: 1, waiting: 1},
			{at: 0, op: acquire, in: 5 * ms, want: Queued, wantT: 2, wantAt: 5 * ms, inUse: 1, waiting: 2},
			{at: 0, op: acquire, in: none, want: Full, inUse: 1, waiting: 2},
			{at: 1 * ms, op: release, wantOK: true, wantT: 1, wantAt: 1 * ms, inUse: 1, waiting: 1},
			{at: 1 * ms, op: acquire, in: none, want: Queued, wantT: 3, wantAt: none, inUse: 1, waiting: 2},
		}},
		{"a queued call past its deadline is dropped, not run", PoolConfig{MaxThreadPoolSize: 1, QueueCapacity: 5}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: 5 * ms, want: Queued, wantT: 1, wantAt: 5 * ms, inUse: 1, waiting: 1},
			{at: 1 * ms, op: acquire, in: 50 * ms, want: Queued, wantT: 2, wantAt: 50 * ms, inUse: 1, waiting: 2},
			{at: 5 * ms, op: release, wantOK: true, wantT: 2, wantAt: 4 * ms, inUse: 1},
			{at: 5 * ms, op: expire, in: 1, wantOK: true, wantO: policies.DeadlineExceeded, inUse: 1},
			{at: 6 * ms, op: release, inUse: 0},
		}},
		{"no queue: Hystrix's synchronous hand-off", PoolConfig{MaxThreadPoolSize: 2, QueueCapacity: 0}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: none, want: Granted, inUse: 2},
			{at: 0, op: acquire, in: none, want: Full, inUse: 2},
		}},
		{"early expire reports bulkhead full", PoolConfig{MaxThreadPoolSize: 1, QueueCapacity: 1}, []step{
			{at: 0, op: acquire, in: none, want: Granted, inUse: 1},
			{at: 0, op: acquire, in: 10 * ms, want: Queued, wantT: 1, wantAt: 10 * ms, inUse: 1, waiting: 1},
			{at: 3 * ms, op: expire, in: 1, wantOK: true, wantO: policies.BulkheadFull, inUse: 1},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPool(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			runSteps(t, p, tt.steps)
		})
	}
}

func TestQueueGrowsAndWraps(t *testing.T) {
	s, _ := NewSemaphore(SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: time.Hour})
	s.Acquire(0, none)
	next := Ticket(1)
	// Interleave enqueues and hand-overs so the ring wraps, then grows.
	for round := range 5 {
		for range 3 + round*7 {
			if a := s.Acquire(0, none); a.Decision != Queued {
				t.Fatalf("round %d: %+v", round, a)
			}
		}
		for s.Waiting() > round {
			g, ok := s.Release(1)
			if !ok || g.Ticket != next {
				t.Fatalf("round %d: Release = %+v, %v; want ticket %d", round, g, ok, next)
			}
			next++
		}
	}
	st := s.Stats()
	if st.Queued != st.Handed+uint64(s.Waiting()) || st.Granted != 1 {
		t.Fatalf("stats %+v, waiting %d", st, s.Waiting())
	}
}

// TestSizeByLittlesLaw checks the examples of «Устойчивость: circuit
// breaker, retry, bulkhead, backpressure, деградация» ("Resilience: circuit
// breaker, retry, bulkhead, backpressure, degradation"): the sizing of
// section 5 and the checkout scenario of section 1.
func TestSizeByLittlesLaw(t *testing.T) {
	tests := []struct {
		rate     float64
		lat      time.Duration
		headroom float64
		want     int
	}{
		{200, 50 * ms, 2, 20},            // section 5, with the twofold headroom
		{200, 50 * ms, 1, 10},            // section 5, without it
		{1000, 20 * ms, 1, 20},           // section 1: checkout -> recommendations, normal
		{1000, 5 * time.Second, 1, 5000}, // section 1: recommendations at 5 s
		{0.1, ms, 1, 1},
		{3, 100 * ms, 1.5, 1}, // 0.45 rounds up
		{7, 100 * ms, 1, 1},
		{11, 100 * ms, 1, 2},
	}
	for _, tt := range tests {
		got, err := SizeByLittlesLaw(tt.rate, tt.lat, tt.headroom)
		if err != nil || got != tt.want {
			t.Errorf("SizeByLittlesLaw(%v, %v, %v) = %d, %v; want %d", tt.rate, tt.lat, tt.headroom, got, err, tt.want)
		}
	}
	for _, bad := range [][3]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-1, 1, 1}, {1e30, 1e9, 1}} {
		if _, err := SizeByLittlesLaw(bad[0], time.Duration(bad[1]), bad[2]); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("SizeByLittlesLaw(%v) error %v, want ErrInvalidConfig", bad, err)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if _, err := NewSemaphore(DefaultSemaphoreConfig()); err != nil {
		t.Error(err)
	}
	if _, err := NewPool(DefaultPoolConfig()); err != nil {
		t.Error(err)
	}
	for i, c := range []SemaphoreConfig{{MaxConcurrentCalls: 0}, {MaxConcurrentCalls: maxSlots + 1}, {MaxConcurrentCalls: 1, MaxWaitDuration: -1}} {
		if _, err := NewSemaphore(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("semaphore case %d: %v", i, err)
		}
	}
	for i, c := range []PoolConfig{{MaxThreadPoolSize: 0}, {MaxThreadPoolSize: 1, QueueCapacity: -1}, {MaxThreadPoolSize: 1, QueueCapacity: maxSlots + 1}} {
		if _, err := NewPool(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("pool case %d: %v", i, err)
		}
	}
}

func TestDecisionStringsAndOutcomes(t *testing.T) {
	for d, want := range map[Decision]string{Granted: "granted", Queued: "queued", Full: "full", DeadlineExceeded: "deadline_exceeded", 9: "unknown"} {
		if d.String() != want {
			t.Errorf("%d.String() = %q, want %q", d, d.String(), want)
		}
	}
	if o, ok := (Acquisition{Decision: Full}).Outcome(); !ok || o != policies.BulkheadFull {
		t.Error("Full should map to BulkheadFull")
	}
	if o, ok := (Acquisition{Decision: DeadlineExceeded}).Outcome(); !ok || o != policies.DeadlineExceeded {
		t.Error("DeadlineExceeded should map to DeadlineExceeded")
	}
	if _, ok := (Acquisition{Decision: Queued}).Outcome(); ok {
		t.Error("Queued is not a refusal")
	}
}
