package wall

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/policies/limit"
)

// The server tests run in synctest bubbles only for synctest.Wait, which
// returns when every goroutine of the bubble is blocked: the way a test
// knows that the requests it started have joined the queue. Time is a
// ManualClock's.

func newTestServer(t *testing.T, cfg ServerConfig) (*Server, *ManualClock) {
	t.Helper()
	clock := NewManualClock(0)
	cfg.Clock = clock
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, clock
}

// admission is the result of one Acquire run in a goroutine.
type admission struct {
	name string
	done func(policies.Outcome)
	err  error
}

// goAcquire starts Acquire in a goroutine; its result goes to out.
func goAcquire(ctx context.Context, s *Server, name string, out chan<- admission) {
	go func() {
		done, err := s.Acquire(ctx, policies.Normal)
		out <- admission{name, done, err}
	}()
}

func mustAcquire(t *testing.T, s *Server) func(policies.Outcome) {
	t.Helper()
	done, err := s.Acquire(context.Background(), policies.Normal)
	if err != nil {
		t.Fatal(err)
	}
	return done
}

func TestServerQueueFIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _ := newTestServer(t, ServerConfig{MaxConcurrent: 1, QueueCapacity: 2})
		a := mustAcquire(t, s)
		out := make(chan admission, 3)
		goAcquire(context.Background(), s, "b", out)
		synctest.Wait()
		goAcquire(context.Background(), s, "c", out)
		synctest.Wait()
		if _, err := s.Acquire(context.Background(), policies.Normal); !errors.Is(err, ErrLimited) {
			t.Fatalf("fourth request: %v, want ErrLimited (queue full)", err)
		}
		if st := s.Stats(); st != (ServerStats{InService: 1, Queued: 2, Limit: 1}) {
			t.Fatalf("stats %+v", st)
		}
		a(policies.Success)
		b := <-out
		if b.name != "b" || b.err != nil {
			t.Fatalf("first served %+v, want b (FIFO)", b)
		}
		b.done(policies.Success)
		c := <-out
		if c.name != "c" || c.err != nil {
			t.Fatalf("second served %+v, want c", c)
		}
		c.done(policies.Success)
		c.done(policies.Success) // a second call is a no-op
		if st := s.Stats(); st.InService != 0 || st.Queued != 0 {
			t.Fatalf("stats %+v after all done", st)
		}
	})
}

func TestServerQueuedRequestLeavesWhenCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _ := newTestServer(t, ServerConfig{MaxConcurrent: 1, QueueCapacity: 1})
		a := mustAcquire(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		out := make(chan admission, 1)
		goAcquire(ctx, s, "b", out)
		synctest.Wait()
		cancel()
		if b := <-out; !errors.Is(b.err, context.Canceled) || OutcomeOf(b.err) != policies.Cancelled {
			t.Fatalf("cancelled waiter: %v", b.err)
		}
		if st := s.Stats(); st.Queued != 0 {
			t.Fatalf("%d still queued", st.Queued)
		}
		a(policies.Success)
	})
}

// TestServerAdaptiveLIFO: with the queue busy for longer than Interval
// (100 ms) the newest request is served first. Queue timeouts are off here.
func TestServerAdaptiveLIFO(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := lifo.DefaultConfig()
		cfg.ControlledDelay = false
		s, clock := newTestServer(t, ServerConfig{MaxConcurrent: 1, QueueCapacity: 4, LIFO: &cfg})
		a := mustAcquire(t, s)
		out := make(chan admission, 2)
		goAcquire(context.Background(), s, "old", out)
		synctest.Wait()
		clock.Set(10 * time.Millisecond)
		goAcquire(context.Background(), s, "new", out)
		synctest.Wait()
		clock.Set(150 * time.Millisecond) // not empty since 0: overloaded
		a(policies.Success)
		first := <-out
		if first.name != "new" {
			t.Fatalf("served %q first, want the newest (LIFO)", first.name)
		}
		first.done(policies.Success)
		second := <-out
		second.done(policies.Success)
	})
}

// TestServerLIFOQueueTimeouts: with controlled delay, a request queued while
// the queue is calm gets Interval (100 ms); one queued while it has not been
// empty for Interval gets ShortTimeout (5 ms). Each is dropped by its timer
// with ErrQueueTimeout and, through the Handler, a 503.
func TestServerLIFOQueueTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		cfg := lifo.DefaultConfig()
		var drops []time.Duration
		s, clock := newTestServer(t, ServerConfig{
			MaxConcurrent: 1, QueueCapacity: 4, LIFO: &cfg, RetryAfter: 1500 * ms,
			Hooks: Hooks{Rejected: func(r Rejection) {
				if r.Reason == ErrQueueTimeout {
					drops = append(drops, r.At)
				}
			}},
		})
		a := mustAcquire(t, s)
		out := make(chan admission, 1)
		goAcquire(context.Background(), s, "calm", out)
		synctest.Wait()
		if at, _ := clock.NextTimer(); at != 100*ms {
			t.Fatalf("calm request's queue timeout at %v, want 100ms", at)
		}
		clock.Set(90 * ms)
		goAcquire(context.Background(), s, "calm2", out) // 90 ms busy: still calm
		synctest.Wait()
		clock.Set(100 * ms)
		if b := <-out; b.name != "calm" || !errors.Is(b.err, ErrQueueTimeout) {
			t.Fatalf("%+v, want calm dropped at 100ms", b)
		}
		// At 120 ms the queue has not been empty since 0: overloaded.
		clock.Set(120 * ms)
		rec := httptest.NewRecorder()
		served := make(chan struct{})
		go func() {
			s.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("dropped request served") })).
				ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			close(served)
		}()
		synctest.Wait()
		clock.Set(125 * ms)
		<-served
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "2" {
			t.Fatalf("dropped request answered %d, Retry-After %q; want 503, 2", rec.Code, rec.Header().Get("Retry-After"))
		}
		clock.Set(190 * ms)
		if b := <-out; b.name != "calm2" || !errors.Is(b.err, ErrQueueTimeout) {
			t.Fatalf("%+v, want calm2 dropped at 190ms", b)
		}
		if want := []time.Duration{100 * ms, 125 * ms, 190 * ms}; !slices.Equal(drops, want) {
			t.Fatalf("drops at %v, want %v", drops, want)
		}
		a(policies.Success)
	})
}

// TestServerCoDel: MaxPacket -1 (drop by age alone), Target 5 ms, Interval
// 100 ms. The first dequeue of an old request only starts the clock
// (first_above_time = now + Interval) and delivers it; a request dequeued
// after that instant with a sojourn still above Target is dropped.
func TestServerCoDel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		cfg := codel.Config{Target: 5 * ms, Interval: 100 * ms, MaxPacket: -1}
		s, clock := newTestServer(t, ServerConfig{MaxConcurrent: 1, QueueCapacity: 4, CoDel: &cfg})
		a := mustAcquire(t, s)
		out := make(chan admission, 2)
		goAcquire(context.Background(), s, "b", out)
		synctest.Wait()
		clock.Set(200 * ms)
		goAcquire(context.Background(), s, "c", out)
		synctest.Wait()
		a(policies.Success) // b: sojourn 200 ms, first above: delivered
		b := <-out
		if b.name != "b" || b.err != nil {
			t.Fatalf("%+v, want b delivered", b)
		}
		clock.Set(350 * ms)
		b.done(policies.Success) // c: sojourn 150 ms since 200 ms: dropped
		if c := <-out; c.name != "c" || !errors.Is(c.err, ErrQueueTimeout) {
			t.Fatalf("%+v, want c dropped by CoDel", c)
		}
		// The queue is empty now; a fresh request goes straight in.
		mustAcquire(t, s)(policies.Success)
	})
}

func TestServerShedsByPriority(t *testing.T) {
	// Default thresholds: Background shed from 50 % utilisation. Two slots,
	// one busy: a Background request is shed with 503 and Retry-After 1.
	s, _ := newTestServer(t, ServerConfig{MaxConcurrent: 2, Shed: shedConfig()})
	a := mustAcquire(t, s)
	h := s.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }))
	for _, tt := range []struct {
		prio policies.Priority
		code int
	}{{policies.Background, 503}, {policies.Normal, 200}, {policies.Critical, 200}} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/", nil)
		h.ServeHTTP(rec, req.WithContext(WithPriority(req.Context(), tt.prio)))
		if rec.Code != tt.code {
			t.Errorf("%v: status %d, want %d", tt.prio, rec.Code, tt.code)
		}
		if tt.code == 503 && rec.Header().Get("Retry-After") != "1" {
			t.Errorf("%v: Retry-After %q, want 1", tt.prio, rec.Header().Get("Retry-After"))
		}
	}
	a(policies.Success)
}

// TestServerAdaptiveLimit: AIMD (initial 4, min 1) cuts its limit by 0.9
// on a drop signal: a request slower than its 250 ms timeout, or a handler
// answering 503; the cut shows in Stats and LimitChange.
func TestServerAdaptiveLimit(t *testing.T) {
	cfg := limit.DefaultAIMDConfig()
	cfg.InitialLimit, cfg.MinLimit = 4, 1
	var changes []limit.Transition
	s, clock := newTestServer(t, ServerConfig{
		Limit: &LimitConfig{AIMD: &cfg},
		Hooks: Hooks{LimitChange: func(tr limit.Transition) { changes = append(changes, tr) }},
	})
	status := http.StatusOK
	h := s.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		clock.Advance(300 * time.Millisecond)
		w.WriteHeader(status)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil)) // slow: 4 -> 3.6
	status = http.StatusServiceUnavailable
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil)) // 503: 3.6 -> 3.24
	if got := s.Stats().Limit; got != 3 {
		t.Fatalf("limit %d, want 3", got)
	}
	if len(changes) != 1 || changes[0].From != 4 || changes[0].To != 3 {
		t.Fatalf("limit changes %+v, want one 4 -> 3", changes)
	}
	// With the limit reached and no queue, a request is refused at once.
	var dones []func(policies.Outcome)
	for range 3 {
		dones = append(dones, mustAcquire(t, s))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("over the limit: status %d, want 503", rec.Code)
	}
	for _, d := range dones {
		d(policies.Cancelled)
	}
}

func TestNewServerRejectsBadConfig(t *testing.T) {
	cd := codel.DefaultConfig()
	lf := lifo.DefaultConfig()
	aimd := limit.DefaultAIMDConfig()
	vegas := limit.DefaultVegasConfig()
	for name, cfg := range map[string]ServerConfig{
		"no cap":          {},
		"cap and limit":   {MaxConcurrent: 1, Limit: &LimitConfig{AIMD: &aimd}},
		"two algorithms":  {Limit: &LimitConfig{AIMD: &aimd, Vegas: &vegas}},
		"codel and lifo":  {MaxConcurrent: 1, QueueCapacity: 1, CoDel: &cd, LIFO: &lf},
		"codel, no queue": {MaxConcurrent: 1, CoDel: &cd},
		"bad status":      {MaxConcurrent: 1, RejectStatus: 500},
		"bad aimd":        {Limit: &LimitConfig{AIMD: &limit.AIMDConfig{}}},
		"bad codel":       {MaxConcurrent: 1, QueueCapacity: 1, CoDel: &codel.Config{}},
	} {
		if _, err := NewServer(cfg); err == nil {
			t.Errorf("%s: NewServer accepted it", name)
		}
	}
}

// TestServerLimitAlgorithms builds each algorithm, plain and windowed, and
// checks that the Server enforces its initial limit.
func TestServerLimitAlgorithms(t *testing.T) {
	aimd, vegas, grad := limit.DefaultAIMDConfig(), limit.DefaultVegasConfig(), limit.DefaultGradient2Config()
	win := limit.DefaultWindowedConfig()
	for name, lc := range map[string]LimitConfig{
		"aimd":               {AIMD: &aimd},
		"vegas":              {Vegas: &vegas},
		"gradient2":          {Gradient2: &grad},
		"windowed vegas":     {Vegas: &vegas, Window: &win},
		"windowed gradient2": {Gradient2: &grad, Window: &win},
	} {
		s, _ := newTestServer(t, ServerConfig{Limit: &lc})
		var dones []func(policies.Outcome)
		for range 20 { // every default starts at 20
			dones = append(dones, mustAcquire(t, s))
		}
		if _, err := s.Acquire(context.Background(), policies.Normal); !errors.Is(err, ErrLimited) {
			t.Errorf("%s: 21st request %v, want ErrLimited", name, err)
		}
		for _, d := range dones {
			d(policies.Success)
		}
	}
}

// TestServerHandlerKeepsFlusher: the status recorder in front of the
// handler still lets it stream.
func TestServerHandlerKeepsFlusher(t *testing.T) {
	s, _ := newTestServer(t, ServerConfig{MaxConcurrent: 1})
	rec := httptest.NewRecorder()
	s.Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		f, ok := w.(http.Flusher)
		if !ok {
			t.Fatal("the handler's writer is not an http.Flusher")
		}
		w.Write([]byte("chunk"))
		f.Flush()
	})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if !rec.Flushed || rec.Body.String() != "chunk" {
		t.Fatalf("flushed %v, body %q", rec.Flushed, rec.Body.String())
	}
}
