package topology

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/queueing"
)

func constant(d time.Duration) dist.Dist { return dist.Must(dist.Params{Kind: dist.Constant, Mean: d}) }
func expo(d time.Duration) dist.Dist     { return dist.Must(exp(d)) }
func work(d dist.Dist) []Step            { return []Step{{Kind: WorkStep, Work: d}} }

func callStep(svc string, critical bool, p CallPolicy) Step {
	return Step{Kind: CallStep, Calls: []CallConfig{{Service: svc, Critical: critical, Policy: p}}}
}

func retries(n int) retry.Config {
	c := retry.DefaultConfig()
	c.MaxAttempts = n
	c.Backoff = retry.BackoffNone
	c.Base = 0
	return c
}

func mustRun(t *testing.T, cfg Config) *Result {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func svcResult(t *testing.T, res *Result, name string) ServiceResult {
	t.Helper()
	for _, s := range res.Services {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no service %q", name)
	return ServiceResult{}
}

// TestAmplificationPowers: k retrying layers over a failing bottom give
// exactly 3^k attempts at the bottom per user request.
func TestAmplificationPowers(t *testing.T) {
	for k := 1; k <= 4; k++ {
		cfg := Config{Name: "amp", Duration: 5 * time.Second, Seed: uint64(k)}
		pol := CallPolicy{Timeout: 10 * time.Second, Retry: retries(3)}
		cfg.Clients = []ClientConfig{{Name: "c", Target: "l0", Schedule: []RatePoint{{0, 50}, {4 * time.Second, 0}}, Call: pol}}
		for i := 0; i < k; i++ {
			steps := []Step{callStep(fmt.Sprintf("l%d", i+1), true, pol)}
			cfg.Services = append(cfg.Services, ServiceConfig{Name: fmt.Sprintf("l%d", i), Workers: 10000, QueueCapacity: -1, Steps: steps})
		}
		cfg.Services = append(cfg.Services, ServiceConfig{Name: fmt.Sprintf("l%d", k), Workers: 10000, QueueCapacity: -1, Steps: work(constant(time.Millisecond))})
		cfg.Faults = []FaultConfig{{Kind: ErrorFault, Target: fmt.Sprintf("l%d", k), Instance: -1, Start: 0, End: 5 * time.Second, Rate: 1}}
		res := mustRun(t, cfg)
		want := uint64(math.Pow(3, float64(k+1))) * res.UserRequests // k layers plus the client's retries
		if got := svcResult(t, res, fmt.Sprintf("l%d", k)).Arrivals; got != want {
			t.Errorf("%d retrying services + client: bottom got %d attempts for %d requests, want %d", k, got, res.UserRequests, want)
		}
	}
}

// TestRateSchedule checks arrivals per segment of step and ramp schedules
// against the integral of the rate. Counts are Poisson, so the tolerance
// is 4 standard deviations, 4*sqrt(n).
func TestRateSchedule(t *testing.T) {
	s := time.Second
	for _, linear := range []bool{false, true} {
		cfg := Config{Name: "sched", Duration: 40 * s, Interval: 10 * s, Seed: 3,
			Clients: []ClientConfig{{Name: "c", Target: "s", Linear: linear,
				Schedule: []RatePoint{{0, 100}, {10 * s, 300}, {20 * s, 300}, {30 * s, 0}}}},
			Services: []ServiceConfig{{Name: "s", Workers: 1000, QueueCapacity: -1, Steps: work(constant(time.Millisecond))}},
		}
		res := mustRun(t, cfg)
		col := res.Series.Find("s", "arrivals")
		want := []float64{1000, 3000, 3000, 0}
		if linear {
			want = []float64{2000, 3000, 1500, 0}
		}
		for i, w := range want {
			got := col.Value(i) * 10
			if math.Abs(got-w) > 4*math.Sqrt(w)+1 {
				t.Errorf("linear=%v segment %d: %v arrivals, want %v ± %.0f", linear, i, got, w, 4*math.Sqrt(w))
			}
		}
	}
}

func TestLoadFault(t *testing.T) {
	s := time.Second
	cfg := Config{Name: "spike", Duration: 30 * s, Interval: 10 * s, Seed: 4,
		Clients:  []ClientConfig{{Name: "c", Target: "s", Rate: 100}},
		Services: []ServiceConfig{{Name: "s", Workers: 1000, QueueCapacity: -1, Steps: work(constant(time.Millisecond))}},
		Faults:   []FaultConfig{{Kind: LoadFault, Target: "c", Instance: -1, Start: 10 * s, End: 20 * s, Multiply: 4}},
	}
	res := mustRun(t, cfg)
	col := res.Series.Find("s", "arrivals")
	for i, w := range []float64{1000, 4000, 1000} {
		if got := col.Value(i) * 10; math.Abs(got-w) > 4*math.Sqrt(w) {
			t.Errorf("interval %d: %v arrivals, want %v", i, got, w)
		}
	}
}

// TestClosedLoop checks the interactive response-time law: N users with
// think time Z and response time R send N/(Z+R) requests per second.
func TestClosedLoop(t *testing.T) {
	cfg := Config{Name: "closed", Duration: 200 * time.Second, Warmup: 10 * time.Second, Seed: 5,
		Clients:  []ClientConfig{{Name: "c", Target: "s", Users: 50, ThinkTime: expo(90 * ms)}},
		Services: []ServiceConfig{{Name: "s", Workers: 100, QueueCapacity: -1, Steps: work(constant(10 * ms))}},
	}
	res := mustRun(t, cfg)
	// Never queued (50 users < 100 workers): R = 10 ms exactly, so X =
	// 50/0.1 = 500/s; over 190 s the count's relative SD is about
	// 1/sqrt(95000) = 0.3 %.
	if x := float64(res.Clients[0].Sent) / 190; math.Abs(x-500)/500 > 0.015 {
		t.Errorf("closed loop throughput %.1f/s, want 500/s", x)
	}
}

// TestErlangA: exponential patience with deadline propagation is Erlang A
// (M/M/c+M): a request whose patience ran out while it waited is dropped
// at dequeue, which for FIFO service is the same as abandoning the queue.
func TestErlangA(t *testing.T) {
	exact, _ := queueing.ErlangA{Lambda: 1000, Mu: 100, Theta: 20, C: 10}.PAbandon()
	cfg := Config{Name: "erlang-a", Duration: 1010 * time.Second, Warmup: 10 * time.Second, Seed: 6,
		PropagateDeadlines: true,
		Clients:            []ClientConfig{{Name: "c", Target: "s", Rate: 1000, Deadline: expo(50 * ms)}},
		Services:           []ServiceConfig{{Name: "s", Workers: 10, QueueCapacity: -1, Steps: work(expo(10 * ms))}},
	}
	s := svcResult(t, mustRun(t, cfg), "s")
	got := float64(s.Dropped) / float64(s.Arrivals)
	// One run of 1e6 customers: abandonment is a proportion of about
	// 0.078 with positively correlated successive outcomes; 2 % relative
	// (about 4 standard errors by the spread of seeds) is the tolerance.
	if math.Abs(got-exact)/exact > 0.02 {
		t.Errorf("P(abandon) = %.6f, Erlang A gives %.6f", got, exact)
	}
}

// TestDeadlinePropagationCutsWaste: with fixed per-hop timeouts a slow
// back end keeps working for callers that gave up long ago; with the
// deadline propagated it drops their requests when they leave the queue,
// and its capacity goes to requests that can still be answered in time.
func TestDeadlinePropagationCutsWaste(t *testing.T) {
	build := func(prop bool) Config {
		return Config{Name: "prop", Duration: 60 * time.Second, Warmup: 5 * time.Second, Seed: 7, PropagateDeadlines: prop,
			Clients: []ClientConfig{{Name: "c", Target: "front", Rate: 450, Deadline: constant(500 * ms)}},
			Services: []ServiceConfig{
				{Name: "front", Workers: 10000, QueueCapacity: -1, Steps: []Step{callStep("back", true, CallPolicy{Timeout: 2 * time.Second})}},
				{Name: "back", Workers: 5, QueueCapacity: 5000, Steps: work(expo(10 * ms))},
			},
			Faults: []FaultConfig{{Kind: LatencyFault, Target: "back", Instance: -1, Start: 20 * time.Second, End: 30 * time.Second, Multiply: 2}},
		}
	}
	off := mustRun(t, build(false))
	on := mustRun(t, build(true))
	wOff, wOn := svcResult(t, off, "back").WastedWork, svcResult(t, on, "back").WastedWork
	if !(wOn < wOff/2) {
		t.Errorf("wasted work %v with propagation, %v without: want far less", wOn, wOff)
	}
	if !(on.Clients[0].Goodput > 1.2*off.Clients[0].Goodput) {
		t.Errorf("goodput %.1f/s with propagation, %.1f/s without: want more", on.Clients[0].Goodput, off.Clients[0].Goodput)
	}
	if svcResult(t, on, "back").Dropped == 0 {
		t.Error("with propagation no request was dropped at dequeue")
	}
	if r := on.Faults[0].Recovery; r.Verdict != VerdictRecovered {
		t.Errorf("with propagation: verdict %q, want recovered", r.Verdict)
	}
}

func TestCriticalAndDegraded(t *testing.T) {
	for _, critical := range []bool{true, false} {
		cfg := Config{Name: "deg", Duration: 20 * time.Second, Seed: 8,
			Clients: []ClientConfig{{Name: "c", Target: "front", Rate: 100}},
			Services: []ServiceConfig{
				{Name: "front", Workers: 100, QueueCapacity: -1, Steps: []Step{callStep("dep", critical, CallPolicy{})}},
				{Name: "dep", Workers: 100, QueueCapacity: -1, Steps: work(constant(ms))},
			},
			Faults: []FaultConfig{{Kind: ErrorFault, Target: "dep", Instance: -1, Start: 0, End: 20 * time.Second, Rate: 1}},
		}
		res := mustRun(t, cfg)
		c, f := res.Clients[0], svcResult(t, res, "front")
		if critical && (c.Good != 0 || c.Errors != c.Sent-uint64(0) && c.Errors+1 < c.Sent || f.DependencyFailed == 0) {
			t.Errorf("critical dependency failing: good %d errors %d of %d, front dep-failed %d", c.Good, c.Errors, c.Sent, f.DependencyFailed)
		}
		if !critical && (c.Degraded+1 < c.Sent || c.Errors != 0 || f.Degraded == 0) {
			t.Errorf("non-critical dependency failing: degraded %d errors %d of %d", c.Degraded, c.Errors, c.Sent)
		}
	}
}

// TestParallelWaitsForAll: a fan-out's latency is the slowest branch.
func TestParallelWaitsForAll(t *testing.T) {
	cfg := Config{Name: "par", Duration: 10 * time.Second, Seed: 9,
		Clients: []ClientConfig{{Name: "c", Target: "front", Rate: 10}},
		Services: []ServiceConfig{
			{Name: "front", Workers: 100, QueueCapacity: -1, Steps: []Step{{Kind: ParallelStep, Calls: []CallConfig{
				{Service: "a", Critical: true}, {Service: "b", Critical: true}}}}},
			{Name: "a", Workers: 100, QueueCapacity: -1, Steps: work(constant(30 * ms))},
			{Name: "b", Workers: 100, QueueCapacity: -1, Steps: work(constant(70 * ms))},
		},
	}
	l := mustRun(t, cfg).Clients[0].Latency
	if l.Min() != int64(70*ms) || l.Max() != int64(70*ms) {
		t.Errorf("fan-out latency %v..%v, want exactly 70ms (the slower branch)", time.Duration(l.Min()), time.Duration(l.Max()))
	}
}

func TestCrashAndBalancers(t *testing.T) {
	killed := uint64(0)
	for _, b := range []Balancer{RoundRobin, Random, LeastOutstanding, PowerOfTwo} {
		cfg := Config{Name: "crash", Duration: 30 * time.Second, Interval: 10 * time.Second, Seed: 10,
			Clients:  []ClientConfig{{Name: "c", Target: "s", Rate: 300, Call: CallPolicy{Timeout: time.Second, Retry: retries(2)}}},
			Services: []ServiceConfig{{Name: "s", Instances: 3, Balancer: b, Workers: 10, QueueCapacity: -1, Steps: work(expo(10 * ms))}},
			Faults:   []FaultConfig{{Kind: CrashFault, Target: "s", Instance: -1, Start: 10 * time.Second, End: 20 * time.Second, Count: 2}},
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run()
		if err != nil {
			t.Fatal(err)
		}
		s := svcResult(t, res, "s")
		c := res.Clients[0]
		// With one of three instances up (capacity 1000/s) the load still
		// fits, and the retry covers requests caught in the crash.
		if c.Good+5 < c.Sent {
			t.Errorf("%v: %d good of %d sent (%d errors): a crash of 2 of 3 instances should cost almost nothing", b, c.Good, c.Sent, c.Errors)
		}
		killed += s.Killed
		if m.pool.live != s.InFlightAtEnd {
			t.Errorf("%v: %d attempts live, %d in flight", b, m.pool.live, s.InFlightAtEnd)
		}
		// Every balancer spreads the load over the instances: the one left
		// up during the crash takes more, but none is starved.
		for i, n := range s.InstanceArrivals {
			if n < s.Arrivals/6 {
				t.Errorf("%v: instance %d got %d of %d attempts", b, i, n, s.Arrivals)
			}
		}
	}
	if killed == 0 {
		t.Error("no request was caught in any crash")
	}
}

func TestWorkersFault(t *testing.T) {
	cfg := Config{Name: "workers", Duration: 30 * time.Second, Interval: 10 * time.Second, Seed: 11,
		Clients:  []ClientConfig{{Name: "c", Target: "s", Rate: 500}},
		Services: []ServiceConfig{{Name: "s", Workers: 10, QueueCapacity: 0, Steps: work(constant(10 * ms))}},
		Faults:   []FaultConfig{{Kind: WorkersFault, Target: "s", Instance: -1, Start: 10 * time.Second, End: 20 * time.Second, Count: 6}},
	}
	res := mustRun(t, cfg)
	// With 4 workers of 100/s each and no queue, about 500-400 = 100+/s
	// are rejected (Erlang B for a = 5, c = 4 is 0.398).
	rej := res.Series.Find("s", "rejected")
	if rej.Value(0) > 20 || rej.Value(2) > 20 || math.Abs(rej.Value(1)-0.398*500) > 25 {
		t.Errorf("rejections per second %.1f, %.1f, %.1f; want ~0, ~199 (Erlang B(4, 5)), ~0", rej.Value(0), rej.Value(1), rej.Value(2))
	}
}

func TestFreeze(t *testing.T) {
	cfg := Config{Name: "freeze", Duration: 10 * time.Second, Seed: 12,
		Clients:  []ClientConfig{{Name: "c", Target: "s", Rate: 20}},
		Services: []ServiceConfig{{Name: "s", Workers: 1000, QueueCapacity: -1, Steps: work(constant(100 * ms))}},
		Faults:   []FaultConfig{{Kind: FreezeFault, Target: "s", Instance: -1, Start: 5 * time.Second, End: 6 * time.Second}},
	}
	l := mustRun(t, cfg).Clients[0].Latency
	// Work that overlaps the 1 s pause takes up to 1.1 s; the rest 100 ms.
	if l.Min() != int64(100*ms) || l.Max() <= int64(time.Second) || l.Max() > int64(1100*ms) {
		t.Errorf("latency %v..%v, want 100ms..1.1s", time.Duration(l.Min()), time.Duration(l.Max()))
	}
}

// TestFreezeCostsOneEventAStep: a work step caught in a freeze costs one
// event more, whatever the freeze's length over the step's: one user
// sending 0.5 ms requests every 10 ms fires no more events with a 500 ms
// freeze than without it (fewer: it waits the freeze out), where
// re-checking the step every 0.5 ms of the freeze cost 1000 more; and the
// step still takes its 0.5 ms of work plus the freeze.
func TestFreezeCostsOneEventAStep(t *testing.T) {
	cfg := Config{Name: "freeze-events", Duration: time.Second, Seed: 3,
		Clients:  []ClientConfig{{Name: "c", Target: "s", Users: 1, ThinkTime: constant(10 * ms)}},
		Services: []ServiceConfig{{Name: "s", Workers: 1, QueueCapacity: 0, Steps: work(constant(ms / 2))}},
	}
	calm := mustRun(t, cfg).Events
	// Request 19 is sent at 10 ms + 19 x 10.5 ms = 209.5 ms; the freeze
	// catches it half done.
	start := 209*ms + 750*time.Microsecond
	cfg.Faults = []FaultConfig{{Kind: FreezeFault, Target: "s", Instance: -1, Start: start, End: start + 500*ms}}
	res := mustRun(t, cfg)
	if res.Events > calm+1 {
		t.Errorf("%d events with a 500 ms freeze, %d without: want at most 1 more", res.Events, calm)
	}
	if l := res.Clients[0].Latency; l.Max() != int64(500*ms+ms/2) {
		t.Errorf("latency max %v, want 500.5ms (the work and the freeze)", time.Duration(l.Max()))
	}
}

// TestAsyncHoldsSlotsNotThreads: an async service's slots bound what it
// admits, but waiting on a dependency costs no worker.
func TestAsyncHoldsSlotsNotThreads(t *testing.T) {
	cfg := Config{Name: "async", Duration: 20 * time.Second, Warmup: 2 * time.Second, Seed: 13,
		Clients: []ClientConfig{{Name: "c", Target: "front", Rate: 1000}},
		Services: []ServiceConfig{
			{Name: "front", Mode: Async, MaxInFlight: 300, QueueCapacity: 0, Steps: []Step{callStep("slow", true, CallPolicy{})}},
			{Name: "slow", Mode: Async, MaxInFlight: 100000, Steps: work(constant(200 * ms))},
		},
	}
	res := mustRun(t, cfg)
	f := svcResult(t, res, "front")
	// Little's law: 1000/s x 0.2 s = 200 in flight < 300 slots.
	if math.Abs(f.MeanBusy-200) > 10 || f.Rejected > f.Arrivals/100 {
		t.Errorf("async front: %.1f in flight (want ~200), %d rejected", f.MeanBusy, f.Rejected)
	}
}

func TestConfigRejectsCyclesAndBadCalls(t *testing.T) {
	base := func() Config {
		return Config{Name: "x", Duration: time.Second,
			Clients: []ClientConfig{{Name: "c", Target: "a", Rate: 1}},
			Services: []ServiceConfig{
				{Name: "a", Workers: 1, Steps: []Step{callStep("b", true, CallPolicy{})}},
				{Name: "b", Workers: 1, Steps: []Step{callStep("a", true, CallPolicy{})}},
			},
		}
	}
	c := base()
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("cycle a->b->a: err = %v", err)
	}
	c = base()
	c.Services[1].Steps = []Step{callStep("b", true, CallPolicy{})}
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("self call: err = %v", err)
	}
	c = base()
	c.Services[1].Steps = []Step{callStep("nowhere", true, CallPolicy{})}
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown callee: err = %v", err)
	}
	c = base()
	c.Services[1].Steps = work(constant(ms))
	c.Services[1].Operations = []Operation{{Name: "x", Steps: work(constant(ms))}}
	c.Services[0].Steps[0].Calls[0].Operation = "y"
	c.Services[1].Steps = nil
	if _, err := New(c); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown operation: err = %v", err)
	}
}

// TestImmediateRejectionInsideACall: a callee that rejects at once (full
// queue, no network) answers while its caller is still sending; the
// answer must come by an event, not re-enter the caller's handler. Every
// user request is accounted for exactly once.
func TestImmediateRejectionInsideACall(t *testing.T) {
	cfg := Config{Name: "reject", Duration: 20 * time.Second, Seed: 14,
		Clients: []ClientConfig{{Name: "c", Target: "front", Rate: 500, Deadline: constant(time.Second)}},
		Services: []ServiceConfig{
			{Name: "front", Workers: 1000, QueueCapacity: -1, Steps: []Step{
				callStep("db", true, CallPolicy{Timeout: 300 * ms, Retry: retries(2)}),
				{Kind: ParallelStep, Calls: []CallConfig{{Service: "db", Critical: false}, {Service: "db", Critical: true, Probability: 0.5}}},
			}},
			{Name: "db", Workers: 2, QueueCapacity: 3, Steps: work(expo(5 * ms))},
		},
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	c := res.Clients[0]
	ended := c.Good + c.Degraded + c.Late + c.Expired + c.Errors + c.Rejected + c.Dropped
	inFlight := uint64(svcResult(t, res, "front").InFlightAtEnd)
	if ended+inFlight != c.Sent || svcResult(t, res, "db").Rejected == 0 {
		t.Errorf("sent %d, ended %d + in flight %d; db rejected %d", c.Sent, ended, inFlight, svcResult(t, res, "db").Rejected)
	}
}

// TestLivenessRestartsOverloadedInstances: a liveness probe that waits in
// the queue like any request fails when the instance is overloaded, and
// the restarts it triggers throw away work and capacity: the overload
// gets worse, not better.
func TestLivenessRestartsOverloadedInstances(t *testing.T) {
	build := func(live bool) Config {
		c := Config{Name: "live", Duration: 120 * time.Second, Warmup: 5 * time.Second, Seed: 15,
			Clients: []ClientConfig{{Name: "c", Target: "s", Rate: 800, Deadline: constant(2 * time.Second)}},
			Services: []ServiceConfig{{Name: "s", Instances: 4, Workers: 3, QueueCapacity: 1000,
				Steps: work(expo(12 * ms))}},
			Faults: []FaultConfig{{Kind: LatencyFault, Target: "s", Instance: -1, Start: 30 * time.Second, End: 40 * time.Second, Multiply: 2}},
		}
		if live {
			c.Services[0].Guards.Liveness = &LivenessConfig{
				Probe:       health.Config{Period: time.Second, Timeout: 500 * ms, SuccessThreshold: 1, FailureThreshold: 3},
				RestartTime: 10 * time.Second,
			}
		}
		return c
	}
	with, without := mustRun(t, build(true)), mustRun(t, build(false))
	s := svcResult(t, with, "s")
	if s.Restarts == 0 || s.Killed == 0 {
		t.Fatalf("no liveness restart (restarts %d, killed %d)", s.Restarts, s.Killed)
	}
	if g1, g0 := with.Clients[0].Goodput, without.Clients[0].Goodput; g1 >= g0 {
		t.Errorf("goodput %.1f/s with the liveness probe, %.1f/s without: restarts should make it worse", g1, g0)
	}
	// Quiet: no restart without overload.
	q := build(true)
	q.Faults = nil
	if r := svcResult(t, mustRun(t, q), "s").Restarts; r != 0 {
		t.Errorf("%d restarts without overload", r)
	}
}
