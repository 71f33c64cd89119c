package experiments_test

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
	"github.com/ressim/ressim/sim/topology"
)

const sec = time.Second

func call(t *testing.T, res *topology.Result, caller, callee string) topology.CallResult {
	t.Helper()
	for _, c := range res.Calls {
		if c.Caller == caller && c.Callee == callee {
			return c
		}
	}
	t.Fatalf("no call %s -> %s", caller, callee)
	return topology.CallResult{}
}

// noGuards strips every guard from every call.
func noGuards(c *topology.Config) {
	for i := range c.Services {
		for j := range c.Services[i].Steps {
			for k := range c.Services[i].Steps[j].Calls {
				c.Services[i].Steps[j].Calls[k].Policy.Guards = topology.CallGuards{}
			}
		}
		for o := range c.Services[i].Operations {
			for j := range c.Services[i].Operations[o].Steps {
				for k := range c.Services[i].Operations[o].Steps[j].Calls {
					c.Services[i].Operations[o].Steps[j].Calls[k].Policy.Guards = topology.CallGuards{}
				}
			}
		}
	}
	for i := range c.Clients {
		c.Clients[i].Call.Guards = topology.CallGuards{}
	}
}

func TestRetryBudget(t *testing.T) {
	res := runExp(t, "retry-budget.toml", nil)
	if a := service(t, res, "database").Amplification; a > 1.2 {
		t.Errorf("with budgets the database sees %.2f attempts per request, want about 1.1 (27 without)", a)
	}
	if d := call(t, res, "orders", "database").DeniedBy["budget"]; d == 0 {
		t.Error("no retry was denied by the budget")
	}
	res = runExp(t, "retry-budget.toml", noGuards)
	if a := service(t, res, "database").Amplification; a < 26.9 {
		t.Errorf("without budgets amplification %.2f, want 27", a)
	}
}

func TestRetryBudgetStorm(t *testing.T) {
	res := runExp(t, "retry-budget-storm.toml", nil)
	if r := res.Faults[0].Recovery; r.Verdict != topology.VerdictRecovered || r.Time > 30*sec {
		t.Errorf("with a retry budget: %q after %v, want recovered", r.Verdict, r.Time)
	}
	res = runExp(t, "retry-budget-storm.toml", noGuards)
	if r := res.Faults[0].Recovery; r.Verdict != topology.VerdictLockedIn {
		t.Errorf("without the budget: %q, want locked_in", r.Verdict)
	}
}

func TestBreakerFallback(t *testing.T) {
	res := runExp(t, "breaker-fallback.toml", nil)
	// During the hang users get the degraded page, fast.
	degraded := mean(t, res, "users", "degraded", 25*sec, 60*sec)
	p99 := mean(t, res, "users", "latency_p99", 25*sec, 60*sec)
	if degraded < 450 || p99 > 50 {
		t.Errorf("during the hang: %.0f degraded pages/s, p99 %.1f ms; want ~500/s in milliseconds", degraded, p99)
	}
	state := res.Series.Find("page->recommendations/call", "breaker_state")
	if state == nil {
		t.Fatal("no breaker state series")
	}
	if v := state.Value(state.Len() - 1); v != 0 {
		t.Errorf("breaker state at the end %v, want closed (0) after the probes passed", v)
	}
	if c := call(t, res, "page", "recommendations"); c.BreakerOpened < 2 || c.ShortCircuited == 0 {
		t.Errorf("breaker opened %d times and refused %d calls; want it to re-open on failed probes", c.BreakerOpened, c.ShortCircuited)
	}
	// Without the breaker every page waits for the 300 ms timeout.
	res = runExp(t, "breaker-fallback.toml", noGuards)
	if p50 := mean(t, res, "users", "latency_p50", 25*sec, 60*sec); p50 < 250 {
		t.Errorf("without breaker and fallback, p50 during the hang %.0f ms, want ~300 ms", p50)
	}
}

func TestBulkhead(t *testing.T) {
	res := runExp(t, "bulkhead.toml", nil)
	before := mean(t, res, "cart", "goodput", 5*sec, 10*sec)
	during := mean(t, res, "cart", "goodput", 11*sec, 20*sec)
	if during < 0.9*before {
		t.Errorf("with the bulkhead cart goodput %.1f/s during the fault, %.1f/s before; want it kept", during, before)
	}
	res = runExp(t, "bulkhead.toml", noGuards)
	if during := mean(t, res, "cart", "goodput", 11*sec, 20*sec); during > 0.1*before {
		t.Errorf("without the bulkhead cart goodput %.1f/s during the fault; want ~0", during)
	}
}

func TestDeadlinePropagationExperiment(t *testing.T) {
	on := runExp(t, "deadline-propagation.toml", nil)
	off := runExp(t, "deadline-propagation.toml", func(c *topology.Config) { c.PropagateDeadlines = false })
	wOn, wOff := service(t, on, "back").WastedWork, service(t, off, "back").WastedWork
	if wOn > wOff/2 {
		t.Errorf("wasted work %v with propagation, %v without; want far less", wOn, wOff)
	}
	if gOn, gOff := on.Clients[0].Goodput, off.Clients[0].Goodput; gOn < 1.2*gOff {
		t.Errorf("goodput %.1f/s with propagation, %.1f/s without; want more", gOn, gOff)
	}
	if r := on.Faults[0].Recovery; r.Verdict != topology.VerdictRecovered {
		t.Errorf("with propagation: %q, want recovered", r.Verdict)
	}
}

func TestCoDelAndLIFO(t *testing.T) {
	surge := func(edit func(*topology.Config)) float64 {
		return mean(t, runExp(t, "codel-lifo.toml", edit), "users", "goodput", 30*sec, 80*sec)
	}
	adaptive := surge(nil)
	controlled := surge(func(c *topology.Config) { c.Services[0].Admission.LIFO.Discipline = lifo.AlwaysFIFO })
	fifo := surge(func(c *topology.Config) { c.Services[0].Admission.LIFO = nil })
	rfc := surge(func(c *topology.Config) {
		cd := codel.DefaultConfig()
		c.Services[0].Admission.LIFO = nil
		c.Services[0].Admission.CoDel = &cd
	})
	// Capacity is 1000/s.
	if adaptive < 800 || controlled < 800 || fifo > 100 {
		t.Errorf("goodput during the surge: adaptive LIFO %.0f/s, FIFO with controlled delay %.0f/s, plain FIFO %.0f/s; want ~1000, ~1000, ~0",
			adaptive, controlled, fifo)
	}
	if rfc <= fifo {
		t.Errorf("RFC 8289 CoDel %.0f/s, no better than FIFO %.0f/s", rfc, fifo)
	}
	t.Logf("goodput during the surge: adaptive LIFO %.0f/s, FIFO + controlled delay %.0f/s, RFC CoDel %.0f/s, FIFO %.0f/s", adaptive, controlled, rfc, fifo)
}

func TestAdaptiveLimit(t *testing.T) {
	res := runExp(t, "adaptive-limit.toml", nil)
	before := mean(t, res, "api", "concurrency_limit", 20*sec, 40*sec)
	during := mean(t, res, "api", "concurrency_limit", 50*sec, 70*sec)
	after := mean(t, res, "api", "concurrency_limit", 80*sec, 100*sec)
	if !(during < 0.8*before && after > 0.9*before) || before < 20 || before > 40 {
		t.Errorf("limit %.1f before, %.1f with half the workers, %.1f after; want near 20-30 (the 20 workers), falling with capacity and back", before, during, after)
	}
	if g := mean(t, res, topology.TotalEntity, "goodput", 20*sec, 40*sec); g < 1800 {
		t.Errorf("goodput %.0f/s at 125 %% load, want near the 2000/s capacity", g)
	}
}

func TestOutlierEjection(t *testing.T) {
	res := runExp(t, "outlier-ejection.toml", nil)
	if mean(t, res, "api", "ejected_instances", 25*sec, 45*sec) < 0.9 {
		t.Error("the failing instance was not ejected")
	}
	if c := res.Clients[0]; float64(c.Errors) > 0.01*float64(c.Sent) {
		t.Errorf("%d errors of %d: ejection should spare almost every request", c.Errors, c.Sent)
	}
	// A slow instance (50x, so its callers time out after 200 ms) is
	// ejected too: timeouts count as failures of the host.
	res = runExp(t, "outlier-ejection.toml", func(c *topology.Config) {
		c.Faults[0] = topology.FaultConfig{Kind: topology.LatencyFault, Target: "api", Instance: 3, Start: 20 * sec, End: 80 * sec, Multiply: 50}
	})
	if mean(t, res, "api", "ejected_instances", 25*sec, 45*sec) < 0.9 {
		t.Error("the slow instance was not ejected")
	}
	// Every instance failing: never more than half ejected.
	res = runExp(t, "outlier-ejection.toml", func(c *topology.Config) { c.Faults[0].Instance = -1 })
	ts := res.Series
	ej := ts.Find("api", "ejected_instances")
	for i := 0; i < ts.Len(); i++ {
		if ej.Value(i) > 2 {
			t.Fatalf("%v instances ejected at t=%ds, want at most 50 %% of 4", ej.Value(i), i)
		}
	}
	if mean(t, res, "api", "ejected_instances", 25*sec, 75*sec) < 1 {
		t.Error("with all instances failing, none was ejected")
	}
}

func TestReadinessTrap(t *testing.T) {
	trap := runExp(t, "readiness-trap.toml", nil)
	if r := mean(t, trap, "shop", "ready_instances", 30*sec, 48*sec); r > 0 {
		t.Errorf("%.1f shop instances ready during the outage, want 0: every probe fails at once", r)
	}
	served := func(res *topology.Result) float64 {
		return mean(t, res, "users", "goodput", 30*sec, 48*sec) + mean(t, res, "users", "degraded", 30*sec, 48*sec)
	}
	if s := served(trap); s > 10 {
		t.Errorf("with the trap users got %.0f pages/s during the outage, want none", s)
	}
	fixed := runExp(t, "readiness-trap.toml", func(c *topology.Config) { c.Services[0].Guards.Readiness.DependsOn = nil })
	if s := served(fixed); s < 270 {
		t.Errorf("with a correct probe users got %.0f pages/s (degraded), want ~300", s)
	}
}

func TestBreakerOrder(t *testing.T) {
	inside := runExp(t, "breaker-order.toml", nil)
	outside := runExp(t, "breaker-order.toml", func(c *topology.Config) {
		c.Services[0].Steps[0].Calls[0].Policy.Guards.BreakerInsideRetry = false
	})
	in, out := call(t, inside, "api", "db"), call(t, outside, "api", "db")
	if in.RetriesIntoOpen == 0 || out.RetriesIntoOpen != 0 {
		t.Errorf("retries into an open breaker: inside %d (want > 0), outside %d (want 0)", in.RetriesIntoOpen, out.RetriesIntoOpen)
	}
	// What the simulation measures about opening: inside the loop every
	// failed attempt counts, so the window fills sooner.
	opened := func(res *topology.Result) time.Duration {
		st := res.Series.Find("api->db/call", "breaker_state")
		for i := 0; i < st.Len(); i++ {
			if res.Series.Start(i) >= int64(20*sec) && st.Value(i) == 2 {
				return time.Duration(res.Series.End(i))
			}
		}
		return -1
	}
	tIn, tOut := opened(inside), opened(outside)
	if tIn < 0 || tOut < 0 || tIn > tOut {
		t.Errorf("breaker opened at %v inside the retry loop, %v outside; the simulation expects inside no later", tIn, tOut)
	}
	t.Logf("breaker opened at %v inside the retry loop, %v outside", tIn, tOut)
}

// TestPolicyFlavours covers the second flavour of each policy on the
// bundled systems: Envoy's concurrency retry budget, the dedicated-pool
// bulkhead, a kill switch, and a fallback that fails too.
func TestPolicyFlavours(t *testing.T) {
	// Envoy's retry budget: retries in flight at most 20 % of the calls in
	// flight at every layer. With Envoy's default floor of 3 concurrent
	// retries it barely bites here, where failures are fast and few calls
	// are in flight at once (about 12x instead of 27x): it bounds retry
	// concurrency, not the retry rate. Without the floor it cuts deep.
	envoy := func(floor int) float64 {
		return service(t, runExp(t, "retry-budget.toml", func(c *topology.Config) {
			conc := budget.DefaultConcurrencyConfig()
			conc.MinRetryConcurrency = floor
			set := func(p *topology.CallPolicy) {
				p.Guards.Budget = nil
				p.Guards.RetryConcurrency = &conc
			}
			set(&c.Clients[0].Call)
			for i := range c.Services {
				for j := range c.Services[i].Steps {
					for k := range c.Services[i].Steps[j].Calls {
						set(&c.Services[i].Steps[j].Calls[k].Policy)
					}
				}
			}
		}), "database").Amplification
	}
	withFloor, noFloor := envoy(3), envoy(0)
	if withFloor >= 27 || noFloor > 2 {
		t.Errorf("Envoy-style budgets: amplification %.2f with the floor of 3, %.2f without; want below 27, and near 1", withFloor, noFloor)
	}
	t.Logf("Envoy-style retry budget: amplification %.2f with min_retry_concurrency 3, %.2f with 0", withFloor, noFloor)
	// The pool bulkhead keeps the cart goodput like the semaphore does.
	res := runExp(t, "bulkhead.toml", func(c *topology.Config) {
		p := &c.Services[0].Operations[0].Steps[1].Calls[0].Policy.Guards
		pool := bulkhead.PoolConfig{MaxThreadPoolSize: 40, QueueCapacity: 10}
		p.Bulkhead, p.BulkheadPool = nil, &pool
	})
	if during := mean(t, res, "cart", "goodput", 11*sec, 20*sec); during < 90 {
		t.Errorf("pool bulkhead: cart goodput %.1f/s during the fault, want ~100", during)
	}
	// A kill switch instead of the breaker: recommendations is not called
	// at all while it is on, and the fallback answers.
	res = runExp(t, "breaker-fallback.toml", func(c *topology.Config) {
		c.Services[0].Steps[1].Calls[0].Policy.Guards.Breaker = nil
		c.Faults = append(c.Faults, topology.FaultConfig{Kind: topology.KillSwitchFault, Target: "recommendations", Instance: -1, Start: 21 * sec, End: 61 * sec})
	})
	if a := mean(t, res, "recommendations", "arrivals", 25*sec, 60*sec); a > 1 {
		t.Errorf("recommendations got %.1f calls/s with its kill switch on", a)
	}
	if d := mean(t, res, "users", "degraded", 25*sec, 60*sec); d < 450 {
		t.Errorf("%.0f degraded pages/s with the feature killed, want ~500", d)
	}
	if c := call(t, res, "page", "recommendations"); c.Killed == 0 {
		t.Error("no call counted as killed")
	}
	// A fallback that fails too: the call fails after all.
	res = runExp(t, "breaker-fallback.toml", func(c *topology.Config) {
		c.Services[0].Steps[1].Calls[0].Policy.Guards.Fallback.FailRate = 1
	})
	if c := call(t, res, "page", "recommendations"); c.FallbackFailed == 0 || c.Fallbacks != 0 {
		t.Errorf("fallbacks %d, failed %d; want every fallback to fail", c.Fallbacks, c.FallbackFailed)
	}
}
