package topology

import (
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
)

// networkConfig is one client calling one service whose every request
// takes work, over a call with the given policy: 1000 workers for 20
// requests/s of at most a second, so nothing ever queues. The client stops
// sending 1 s before the end, so every request has ended by then.
func networkConfig(d time.Duration, work dist.Dist, p CallPolicy) Config {
	return Config{Name: "network", Duration: d, Seed: 21,
		Clients: []ClientConfig{{Name: "c", Target: "s", Call: p,
			Schedule: []RatePoint{{0, 20}, {d - time.Second, 0}}}},
		Services: []ServiceConfig{{Name: "s", Workers: 1000, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: work}}}},
	}
}

// TestNetworkEachWayInsideTimeout: a call's network latency is paid once
// on the request and once on the response, and both legs count inside the
// attempt's timeout (as in Brooker's simulator, where the timeout is set
// when the request leaves the client). With a constant 50 ms network and
// 200 ms of work every answer takes exactly 300 ms; a 301 ms timeout never
// fires, a 299 ms one always does: the server has done the work, but its
// answer is still on the network when the caller stops waiting.
func TestNetworkEachWayInsideTimeout(t *testing.T) {
	for _, c := range []struct {
		timeout   time.Duration
		wantAll   bool // every request answered in exactly 300 ms
		wantTimed bool // every attempt timed out after the server answered
	}{
		{0, true, false},
		{301 * ms, true, false},
		{299 * ms, false, true},
	} {
		p := CallPolicy{Timeout: c.timeout, Network: constant(50 * ms)}
		res := mustRun(t, networkConfig(100*time.Second, constant(200*ms), p))
		cl, s, call := res.Clients[0], svcResult(t, res, "s"), res.Calls[0]
		lat := cl.Latency
		if s.Sojourn.Min() != int64(200*ms) || s.Sojourn.Max() != int64(200*ms) {
			t.Errorf("timeout %v: the server held requests [%v, %v], want 200 ms: the network is not its time",
				c.timeout, time.Duration(s.Sojourn.Min()), time.Duration(s.Sojourn.Max()))
		}
		switch {
		case c.wantAll && (cl.Good == 0 || lat.Min() != int64(300*ms) || lat.Max() != int64(300*ms) || call.Timeouts != 0):
			t.Errorf("timeout %v: %d good, latency [%v, %v], %d timeouts; want every answer in 300 ms = 50 + 200 + 50",
				c.timeout, cl.Good, time.Duration(lat.Min()), time.Duration(lat.Max()), call.Timeouts)
		case c.wantTimed && (cl.Good != 0 || call.Timeouts == 0 || call.Timeouts != call.Attempts || s.Completed != call.Attempts):
			t.Errorf("timeout %v: %d good, %d of %d attempts timed out, %d completed at the server; want every attempt completed and timed out",
				c.timeout, cl.Good, call.Timeouts, call.Attempts, s.Completed)
		}
	}
}

// TestNetworkLegsIndependent: the two legs are independent draws, not one
// draw paid twice. With Exp(50 ms) legs and 200 ms of work, the latency
// minus 200 ms is Gamma(2, 50 ms): mean 100 ms, p99 50 ms x 6.6384 =
// 331.9 ms (the root of (1 + x) e^-x = 0.01). One draw doubled would have
// the same mean but a p99 of 2 x 50 ms x ln 100 = 460.5 ms.
//
// Tolerances, for about 20 x 2000 = 40000 answers (20/s over 2000 s): the
// mean's standard error is sqrt(2) x 50 ms / sqrt(40000) = 0.35 ms, so
// 2 ms is more than 5 SE; the p99's is sqrt(0.99 x 0.01 / 40000) / f(p99),
// with the Gamma density f(p99) = 6.6384 e^-6.6384 / 50 ms, about 2.9 ms,
// so 15 ms is 5 SE (the histogram adds under 0.1 %).
func TestNetworkLegsIndependent(t *testing.T) {
	cfg := networkConfig(2000*time.Second, constant(200*ms), CallPolicy{Network: expo(50 * ms)})
	res := mustRun(t, cfg)
	lat := res.Clients[0].Latency
	mean := time.Duration(lat.Mean()) - 200*ms
	p99 := time.Duration(lat.Quantile(0.99)) - 200*ms
	if math.Abs(float64(mean-100*ms)) > float64(2*ms) {
		t.Errorf("mean network time %v over %d answers, want 100 ms (50 ms each way)", mean, lat.Count())
	}
	if math.Abs(float64(p99-332*ms)) > float64(15*ms) {
		t.Errorf("p99 network time %v, want 331.9 ms (two independent Exp(50 ms) legs; one leg doubled gives 460.5 ms)", p99)
	}
}
