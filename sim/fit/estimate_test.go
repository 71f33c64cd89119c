package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// ramp is a counter growing at perSec for 61 one-second samples.
func ramp(perSec float64) *observe.Counter {
	c := &observe.Counter{Refs: []observe.Ref{{ID: "x"}}}
	for i := 0; i <= 60; i++ {
		c.Points = append(c.Points, telemetry.Point{T: int64(i) * 1000, V: perSec * float64(i)})
	}
	return c
}

// level is a gauge at v for the same samples.
func level(v float64) *observe.Gauge {
	g := &observe.Gauge{Refs: []observe.Ref{{ID: "g"}}}
	for i := 0; i <= 60; i++ {
		g.Points = append(g.Points, telemetry.Point{T: int64(i) * 1000, V: v})
	}
	return g
}

// TestEstimateLittle checks the arithmetic on a two-service chain whose
// numbers are known: a takes 100 requests/s with 2 busy workers (each
// request holds one 20 ms) and calls b 1.5 times a request; b's calls
// take 2 ms (its histogram's sum over its count). So a's own work is
// 20 ms - 1.5 x 2 ms = 17 ms, and the traffic enters at a.
func TestEstimateLittle(t *testing.T) {
	lat := &observe.Histogram{Bounds: []float64{0.001, 0.003, math.Inf(1)}, Refs: []observe.Ref{{ID: "h_bucket"}}}
	for i := 0; i <= 60; i++ {
		n := 150 * float64(i)
		lat.Points = append(lat.Points, observe.HistogramPoint{T: int64(i) * 1000,
			Counts: []float64{0.25 * n, n, n}, Sum: 0.002 * n, Count: n})
	}
	obs := &observe.Observations{Preset: "test",
		Services: []observe.Service{
			{Name: "a", Requests: ramp(100), Busy: level(2), Workers: level(4)},
			{Name: "b", Requests: ramp(150), Busy: level(0.3), Workers: level(2), Latency: lat},
		},
		Edges: []observe.Edge{{Caller: "a", Callee: "b", Calls: ramp(150)}},
	}
	m, err := Estimate(obs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %.12g, want %.12g", what, got, want)
		}
	}
	a, b := m.Services[0], m.Services[1]
	near("a arrivals", a.Arrivals.V, 100)
	near("a held", a.Held.V, 0.02)
	near("a fan-out to b", a.Calls[0].FanOut.V, 1.5)
	near("a own work", a.Work.V, 0.017)
	near("a workers", a.Workers.V, 4)
	near("a utilization", a.Utilization, 0.5)
	near("b held", b.Held.V, 0.002)
	if len(m.Clients) != 1 || m.Clients[0].Target != "a" {
		t.Fatalf("clients %+v, want one to a", m.Clients)
	}
	near("client rate", m.Clients[0].Rate.V, 100)
	if !strings.Contains(a.Work.From, "held 20ms less the calls' 3ms") {
		t.Errorf("a's own work says %q", a.Work.From)
	}
	if a.Workers.Placeholder || b.Busy.Placeholder || m.Clients[0].Rate.Placeholder {
		t.Error("a value the series give is marked a placeholder")
	}
}

// TestEstimateNoTraffic: series with no request counter are an error
// that says what was looked for, not an empty experiment.
func TestEstimateNoTraffic(t *testing.T) {
	obs := &observe.Observations{Services: []observe.Service{{Name: "a", Busy: level(1)}}}
	if _, err := Estimate(obs, Options{}); err == nil || !strings.Contains(err.Error(), "no request counter") {
		t.Errorf("error %v, want one naming the missing request counter", err)
	}
}
