package preset

import (
	"math"
	"os"
	"testing"

	"github.com/ressim/ressim/sim/fit/observe"
)

// last returns a counter's last value.
func last(t *testing.T, what string, c *observe.Counter) float64 {
	t.Helper()
	if c == nil || len(c.Points) == 0 {
		t.Fatalf("%s: no counter", what)
	}
	return c.Points[len(c.Points)-1].V
}

func findService(t *testing.T, o observe.Observations, name string) observe.Service {
	t.Helper()
	for _, s := range o.Services {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no service %q in %+v", name, o.Services)
	return observe.Service{}
}

func findEdge(t *testing.T, o observe.Observations, caller, callee string) observe.Edge {
	t.Helper()
	for _, e := range o.Edges {
		if e.Caller == caller && e.Callee == callee {
			return e
		}
	}
	t.Fatalf("no edge %s -> %s in %+v", caller, callee, o.Edges)
	return observe.Edge{}
}

func TestRessimFullExport(t *testing.T) {
	const path = "/work/rt-metrics.om"
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("%s absent", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	set := parseText(t, path, data, true, 0)
	p, err := Detect(set)
	if err != nil || p.Name != "ressim" {
		t.Fatalf("Detect = %q, %v; want ressim", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range o.Services {
		names = append(names, s.Name)
	}
	if got, want := len(names), 4; got != want || names[0] != "backend" || names[3] != "frontend" {
		t.Fatalf("services %v, want backend, cache, db, frontend", names)
	}
	for _, s := range o.Services {
		if s.Requests == nil || s.Handled == nil || s.Errors == nil || s.Latency == nil || s.Busy == nil {
			t.Fatalf("service %s misses a quantity: %+v", s.Name, s)
		}
		if len(s.Requests.Points) < 290 || s.Requests.Points[0].T != 1767225600000 {
			t.Errorf("service %s: %d request points from %d", s.Name, len(s.Requests.Points), s.Requests.Points[0].T)
		}
	}
	fe, be := findService(t, o, "frontend"), findService(t, o, "backend")
	// 200/s for 300 s reach frontend; backend gets one call per request.
	if r := last(t, "frontend", fe.Requests); r < 55000 || r > 65000 {
		t.Errorf("frontend requests %v, want about 60000", r)
	}
	if r, f := last(t, "backend", be.Requests), last(t, "frontend", fe.Requests); math.Abs(r-f) > 0.02*f {
		t.Errorf("backend requests %v, frontend %v: want about equal", r, f)
	}
	h := fe.Latency
	if !math.IsInf(h.Bounds[len(h.Bounds)-1], 1) || h.Bounds[0] != 0.001 {
		t.Errorf("latency bounds %v: want seconds from 0.001 to +Inf", h.Bounds)
	}
	end := h.Points[len(h.Points)-1]
	if mean := end.Sum / end.Count; mean < 0.01 || mean > 0.1 {
		t.Errorf("frontend mean latency %v s, want tens of ms", mean)
	}
	if len(o.Clients) != 1 || o.Clients[0].Name != "users" || o.Clients[0].Good == nil || o.Clients[0].Latency == nil {
		t.Fatalf("clients %+v", o.Clients)
	}
	if g, r := last(t, "good", o.Clients[0].Good), last(t, "sent", o.Clients[0].Requests); g > r || g < 0.9*r {
		t.Errorf("users: %v good of %v sent", g, r)
	}
}

func TestRessimCallSites(t *testing.T) {
	set := setOf(
		one1(
			mk("ressim_service_requests_total", "service", "frontend")(1, 10, 2, 30),
			mk("ressim_service_requests_total", "service", "backend")(1, 10, 2, 5, 3, 20), // reset at 2
			mk("ressim_service_workers", "service", "backend")(1, 8, 2, 8, 3, 8),
			mk("ressim_call_attempts_total", "caller", "client:users", "service", "frontend", "operation", "")(1, 10, 2, 30),
			mk("ressim_call_attempts_total", "caller", "frontend", "service", "backend", "operation", "get")(1, 12, 2, 33),
			mk("ressim_call_retries_total", "caller", "frontend", "service", "backend", "operation", "get")(1, 2, 2, 3),
			mk("ressim_client_requests_total", "client", "users")(1, 10, 2, 30),
		),
	)
	o, err := ressimPreset().Read(set)
	if err != nil {
		t.Fatal(err)
	}
	be := findService(t, o, "backend")
	if got := be.Requests.Points; len(got) != 3 || got[1].V != 15 || got[2].V != 30 {
		t.Errorf("backend requests %v: want the reset undone, 10 15 30", got)
	}
	if be.Workers == nil || be.Workers.Points[0].V != 8 {
		t.Errorf("backend workers %+v", be.Workers)
	}
	if len(o.Clients) != 1 || o.Clients[0].Target != "frontend" {
		t.Errorf("clients %+v: want users targeting frontend", o.Clients)
	}
	if len(o.Edges) != 1 {
		t.Fatalf("edges %+v: want only frontend -> backend", o.Edges)
	}
	e := o.Edges[0]
	if e.Operation != "get" || last(t, "calls", e.Calls) != 33 || last(t, "retries", e.Retries) != 3 {
		t.Errorf("edge %+v", e)
	}
	if e.Calls.Refs[0].ID != `ressim_call_attempts_total{caller="frontend",operation="get",service="backend"}` {
		t.Errorf("refs %+v", e.Calls.Refs)
	}
}

func TestRessimExcerpt(t *testing.T) {
	const path = "testdata/ressim-excerpt.om"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := ressimPreset().Read(parseText(t, path, data, true, 0))
	if err != nil {
		t.Fatal(err)
	}
	db := findService(t, o, "db")
	if got := db.Requests.Points; len(got) != 3 || got[0].T != 1767225600000 || got[2].T != 1767225720000 || got[2].V <= got[1].V {
		t.Errorf("db requests %v: want three increasing scrapes a minute apart", got)
	}
	if n := len(db.Latency.Bounds); n != 16 || len(db.Latency.Points[2].Counts) != n {
		t.Errorf("db latency: %d bounds", n)
	}
	if db.Latency.Refs[0].Origin.File != path || db.Latency.Refs[0].Origin.Line == 0 {
		t.Errorf("refs without origin: %+v", db.Latency.Refs[0])
	}
}
