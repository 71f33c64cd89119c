package callgraph

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/telemetry"
)

const (
	srv = telemetry.KindServer
	cli = telemetry.KindClient
	non = telemetry.KindUnspecified
)

// sp makes a span with times in milliseconds from a fixed epoch.
func sp(trace, id, parent, service string, kind telemetry.SpanKind, startMs, endMs int64) telemetry.Span {
	const epoch = int64(1_700_000_000) * 1e9
	return telemetry.Span{TraceID: trace, SpanID: id, ParentID: parent, Service: service, Operation: "op", Kind: kind,
		Start: epoch + startMs*1e6, End: epoch + endMs*1e6}
}

func build(t *testing.T, spans []telemetry.Span, opt Options) *Graph {
	t.Helper()
	g, err := Build(spans, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + g.Summary())
	return g
}

func edge(t *testing.T, g *Graph, caller, callee string) Edge {
	t.Helper()
	for _, e := range g.Edges {
		if e.Caller == caller && e.Callee == callee {
			return e
		}
	}
	t.Fatalf("no edge %s → %s in %+v", caller, callee, g.Edges)
	return Edge{}
}

func service(t *testing.T, g *Graph, name string) Service {
	t.Helper()
	for _, s := range g.Services {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no service %s", name)
	return Service{}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// withCalls makes a trace: a root request of "front" at [0, 100] ms
// calling callee once per interval with client/server span pairs.
func withCalls(trace, callee string, ivs ...[2]int64) []telemetry.Span {
	out := []telemetry.Span{sp(trace, "r", "", "front", srv, 0, 100)}
	for i, iv := range ivs {
		c := string(rune('a' + i))
		out = append(out,
			sp(trace, "c"+c, "r", "front", cli, iv[0], iv[1]),
			sp(trace, "s"+c, "c"+c, callee, srv, iv[0]+1, iv[1]-1))
	}
	return out
}

func TestFanOut(t *testing.T) {
	var spans []telemetry.Span
	spans = append(spans, withCalls("t1", "cat", [2]int64{10, 20}, [2]int64{30, 40}, [2]int64{50, 60})...)
	spans = append(spans, withCalls("t2", "cat", [2]int64{10, 20}, [2]int64{30, 40})...)
	spans = append(spans, withCalls("t3", "cat", [2]int64{10, 20})...)
	spans = append(spans, withCalls("t4", "cat")...)
	g := build(t, spans, Options{})
	e := edge(t, g, "front", "cat")
	if e.Calls != 6 || e.CallerRequests != 4 || !near(e.FanOut, 1.5) {
		t.Errorf("calls %d / requests %d = fan-out %g, want 6 / 4 = 1.5", e.Calls, e.CallerRequests, e.FanOut)
	}
	if want := []int{1, 1, 1, 1}; !reflect.DeepEqual(e.PerRequest, want) {
		t.Errorf("PerRequest %v, want %v", e.PerRequest, want)
	}
	g = build(t, spans[:len(spans)-1], Options{}) // without t4's request
	if e := edge(t, g, "front", "cat"); !near(e.FanOut, 2.0) {
		t.Errorf("fan-out %g, want 2.0", e.FanOut)
	}
	if len(g.Services) != 2 || service(t, g, "cat").Requests != 6 {
		t.Errorf("services %+v, want front and cat with 6 requests", g.Services)
	}
	if e.Parallel || e.Pairs != 3 || e.Overlapping != 0 {
		t.Errorf("sequential calls: pairs %d overlapping %d parallel %v", e.Pairs, e.Overlapping, e.Parallel)
	}
	if want := []float64{0.01, 0.01, 0.01, 0.01, 0.01, 0.01}; !reflect.DeepEqual(e.Latencies, want) {
		t.Errorf("latencies %v, want the client spans' %v", e.Latencies, want)
	}
}

func TestParallel(t *testing.T) {
	spans := withCalls("t1", "par", [2]int64{10, 50}, [2]int64{12, 48}, [2]int64{14, 60})
	seq := withCalls("t1", "seq", [2]int64{60, 70}, [2]int64{70, 80}, [2]int64{85, 95})[1:]
	for i := range seq {
		seq[i].SpanID += "2"
		if seq[i].ParentID != "r" {
			seq[i].ParentID += "2"
		}
	}
	g := build(t, append(spans, seq...), Options{})
	if e := edge(t, g, "front", "par"); !e.Parallel || e.Pairs != 2 || e.Overlapping != 2 {
		t.Errorf("parallel edge: pairs %d overlapping %d parallel %v", e.Pairs, e.Overlapping, e.Parallel)
	}
	if e := edge(t, g, "front", "seq"); e.Parallel || e.Pairs != 2 || e.Overlapping != 0 {
		t.Errorf("sequential edge: pairs %d overlapping %d parallel %v", e.Pairs, e.Overlapping, e.Parallel)
	}
	// Own time: [0,100] less the union [10,60] ∪ [60,80] ∪ [85,95] = 80.
	if s := service(t, g, "front"); len(s.OwnTimes) != 1 || !near(s.OwnTimes[0], 0.020) || !near(s.Durations[0], 0.1) {
		t.Errorf("own %v duration %v, want [0.02] [0.1]", s.OwnTimes, s.Durations)
	}
}

func TestOwnTimeOverlapping(t *testing.T) {
	spans := withCalls("t1", "a", [2]int64{10, 40}, [2]int64{30, 60}, [2]int64{80, 90}, [2]int64{-5, 5}, [2]int64{95, 120})
	g := build(t, spans, Options{})
	// Union within [0,100]: [0,5] [10,60] [80,90] [95,100] = 70; own 30.
	if s := service(t, g, "front"); !near(s.OwnTimes[0], 0.030) {
		t.Errorf("own time %v, want 0.030", s.OwnTimes)
	}
	if len(g.Issues) != 1 || !strings.Contains(g.Issues[0], "2 spans start before or end after their parent") {
		t.Errorf("issues %q, want the two skewed calls", g.Issues)
	}
	// Leaf requests: own time is the whole span.
	if s := service(t, g, "a"); s.Requests != 5 || !near(s.OwnTimes[0], 0.008) {
		t.Errorf("callee: %d requests, own %v", s.Requests, s.OwnTimes)
	}
}

func TestThinkGap(t *testing.T) {
	spans := withCalls("t1", "a", [2]int64{0, 10}, [2]int64{70, 80})
	for _, c := range []struct {
		gap  time.Duration
		own  float64
		long int
	}{
		{30 * time.Millisecond, 0.020, 1}, // the 60 ms gap is think time
		{-1, 0.080, 0},                    // never
		{0, 0.080, 0},                     // default 10 s
	} {
		g := build(t, spans, Options{ThinkGap: c.gap})
		if s := service(t, g, "front"); !near(s.OwnTimes[0], c.own) || s.Long != c.long {
			t.Errorf("ThinkGap %v: own %v long %d, want %g %d", c.gap, s.OwnTimes, s.Long, c.own, c.long)
		}
	}
}

func TestKindless(t *testing.T) {
	// The span CSV's shape: no kinds; the client span is the caller's
	// span whose child belongs to another service.
	spans := []telemetry.Span{
		sp("t", "1", "", "frontend", non, 0, 50),
		sp("t", "2", "1", "frontend", non, 10, 30),
		sp("t", "3", "2", "cart", non, 12, 28),
		sp("t", "4", "3", "cart", non, 14, 16), // cart's internal work
		sp("t", "5", "1", "frontend", non, 35, 40),
	}
	g := build(t, spans, Options{})
	e := edge(t, g, "frontend", "cart")
	if e.Calls != 1 || !near(e.Latencies[0], 0.020) {
		t.Errorf("calls %d latencies %v, want 1 call of 0.020 s", e.Calls, e.Latencies)
	}
	if s := service(t, g, "frontend"); s.Requests != 1 || !near(s.OwnTimes[0], 0.030) {
		t.Errorf("frontend: %d requests own %v, want 1 and 0.030", s.Requests, s.OwnTimes)
	}
	if s := service(t, g, "cart"); s.Requests != 1 || !near(s.OwnTimes[0], 0.016) {
		t.Errorf("cart: %d requests own %v, want 1 and 0.016", s.Requests, s.OwnTimes)
	}
	if len(g.Roots) != 1 || g.Roots[0].Service != "frontend" || len(g.Issues) != 0 {
		t.Errorf("roots %+v issues %q", g.Roots, g.Issues)
	}
}

func TestZipkinShared(t *testing.T) {
	spans := []telemetry.Span{
		sp("t", "r", "", "api", srv, 0, 40),
		sp("t", "x", "r", "api", cli, 10, 13),
		sp("t", "x", "r", "spectre", srv, 11, 12),
		sp("t", "y", "x", "spectre", cli, 11, 12), // spectre's own call
		sp("t", "m", "r", "api", cli, 15, 17),
	}
	spans[2].Error = true
	spans[3].Peer = "mysql"
	spans[4].Peer = "memcache"
	g := build(t, spans, Options{})
	if e := edge(t, g, "api", "spectre"); e.Calls != 1 || e.Errors != 1 || !near(e.Latencies[0], 0.003) {
		t.Errorf("api → spectre: %+v", e)
	}
	edge(t, g, "api", "memcache")
	edge(t, g, "spectre", "mysql")
	if s := service(t, g, "spectre"); s.Requests != 1 || s.Errors != 1 {
		t.Errorf("spectre: %+v", s)
	}
	if s := service(t, g, "memcache"); s.Requests != 0 {
		t.Errorf("memcache: %+v", s)
	}
	if len(g.Issues) != 0 || len(g.Services) != 4 {
		t.Errorf("issues %q, services %d", g.Issues, len(g.Services))
	}
}

func TestIssues(t *testing.T) {
	spans := []telemetry.Span{
		sp("t1", "a", "gone", "x", srv, 0, 10), // orphan
		sp("t2", "a", "b", "x", srv, 0, 10),    // cycle a → b → a
		sp("t2", "b", "a", "y", srv, 0, 10),
		sp("t3", "s", "s", "z", srv, 0, 10),  // its own parent
		sp("t4", "d", "", "w", srv, 0, 10),   // duplicate ID
		sp("t4", "d", "", "w", srv, 20, 30),  //
		sp("t5", "e", "", "v", srv, 10, 5),   // ends before it starts
		sp("t6", "f", "", "", non, 0, 0),     // untimed, no service
		sp("t6", "g", "f", "", cli, 0, 0),    // client with no callee
		sp("t6", "h", "f", "u", non, 100, 1), //
	}
	spans[7].Start, spans[7].End = 0, 0
	spans[8].Start, spans[8].End = 0, 0
	g := build(t, spans, Options{})
	text := strings.Join(g.Issues, "\n") + "\n" + strings.Join(g.Notes, "\n")
	for _, want := range []string{"1 of 10 spans name a parent that is not in the data", "2 parent links formed a cycle",
		"1 span IDs are used by more than one", "2 spans end before they start", "2 spans have no start time",
		"1 client spans name no callee"} {
		if !strings.Contains(text, want) {
			t.Errorf("issues and notes lack %q:\n%s", want, text)
		}
	}
}

func TestRoots(t *testing.T) {
	var spans []telemetry.Span
	for i := range 5 {
		spans = append(spans, sp(string(rune('a'+i)), "r", "", "gw", srv, int64(i)*1000, int64(i)*1000+50))
	}
	spans = append(spans, sp("z", "r", "", "gw", srv, 0, 0))
	spans[len(spans)-1].Start, spans[len(spans)-1].End, spans[len(spans)-1].Operation = 0, 0, "other"
	g := build(t, spans, Options{})
	if len(g.Roots) != 2 {
		t.Fatalf("roots %+v", g.Roots)
	}
	a := g.Roots[0].Arrivals
	if g.Roots[0].Operation != "op" || a.Count != 5 || a.Timed != 5 || !near(a.Rate, 1.0) || a.End-a.Start != 4e9 {
		t.Errorf("root %+v, want 5 arrivals over 4 s at 1/s", g.Roots[0])
	}
	if b := g.Roots[1].Arrivals; b.Count != 1 || b.Timed != 0 || b.Rate != 0 {
		t.Errorf("untimed root %+v", g.Roots[1])
	}
}

func TestDeterministic(t *testing.T) {
	var spans []telemetry.Span
	for _, tr := range []string{"t1", "t2", "t3"} {
		spans = append(spans, withCalls(tr, "a", [2]int64{10, 20}, [2]int64{15, 30})...)
		spans = append(spans, withCalls(tr+"b", "b", [2]int64{10, 20})...)
	}
	spans = append(spans, sp("t9", "o", "gone", "c", srv, 0, 1))
	want := build(t, spans, Options{})
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := append([]telemetry.Span(nil), spans...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := Build(shuffled, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled input gave another graph:\n%s\nwant\n%s", got.Summary(), want.Summary())
		}
	}
}

func TestLimitsAndEmpty(t *testing.T) {
	if _, err := Build(make([]telemetry.Span, 3), Options{MaxSpans: 2}); err == nil {
		t.Error("3 spans with MaxSpans 2: no error")
	}
	g := build(t, nil, Options{})
	if len(g.Services)+len(g.Edges)+len(g.Roots)+len(g.Issues) != 0 {
		t.Errorf("empty input gave %+v", g)
	}
}

func TestZipkinV1Triple(t *testing.T) {
	// Zipkin v1 converted to v2: one ID for the client half, the shared
	// server half and a kindless local span of the server's service.
	spans := []telemetry.Span{
		sp("t", "r", "", "login", srv, 0, 50),
		sp("t", "x", "r", "login", cli, 10, 40),
		sp("t", "x", "r", "api", srv, 11, 39),
		sp("t", "x", "r", "api", non, 12, 38),
		sp("t", "y", "x", "api", cli, 20, 30),
	}
	spans[4].Peer = "db"
	g := build(t, spans, Options{})
	if s := service(t, g, "api"); s.Requests != 1 || !near(s.OwnTimes[0], 0.018) {
		t.Errorf("api: %d requests own %v, want 1 request, own 0.018", s.Requests, s.OwnTimes)
	}
	if e := edge(t, g, "api", "db"); e.Calls != 1 {
		t.Errorf("api → db: %d calls", e.Calls)
	}
	if e := edge(t, g, "login", "api"); e.Calls != 1 {
		t.Errorf("login → api: %d calls", e.Calls)
	}
	if len(g.Issues) != 0 {
		t.Errorf("issues %q", g.Issues)
	}
}
