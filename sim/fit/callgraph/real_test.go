package callgraph

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
	"github.com/ressim/ressim/sim/telemetry/spans"
)

// sharedDir is where the real telemetry samples live, beside the
// worktree; tests that read them skip when they are absent.
var sharedDir = filepath.Join("..", "..", "..", "..", "shared", "telemetry")

// readReal reads and joins the real sample files rel, skipping the test
// when one is absent.
func readReal(t *testing.T, rel ...string) []telemetry.Span {
	t.Helper()
	var all []telemetry.Span
	for _, r := range rel {
		p := filepath.Join(sharedDir, r)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("real sample %s not present", p)
		}
		s, _, err := spans.ReadFile(p, spans.Options{})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s...)
	}
	return all
}

func TestRealHipster(t *testing.T) {
	for _, file := range []string{"04_25_trace.csv", "04_26_trace.csv"} {
		t.Run(file, func(t *testing.T) {
			g := build(t, readReal(t, filepath.Join("trastrainer-hipster", "trace", file)), Options{})
			e := edge(t, g, "frontend", "productcatalogservice")
			cur := edge(t, g, "frontend", "currencyservice")
			if len(g.Roots) == 0 {
				t.Fatal("no roots")
			}
			r := g.Roots[0]
			t.Logf("hipster %s: %d services, %d edges; root %s %q %d arrivals at %.2f/s; frontend→productcatalog fan-out %.2f (parallel %v, %d/%d pairs overlap), →currency %.2f; issues %q",
				file, len(g.Services), len(g.Edges), r.Service, r.Operation, r.Arrivals.Count, r.Arrivals.Rate,
				e.FanOut, e.Parallel, e.Overlapping, e.Pairs, cur.FanOut, g.Issues)
			if len(g.Services) < 8 || len(g.Edges) < 10 {
				t.Errorf("%d services, %d edges: want at least 8 and 10", len(g.Services), len(g.Edges))
			}
			if len(g.Roots) != 1 || r.Service != "frontend" || r.Arrivals.Rate < 5 || r.Arrivals.Rate > 12 {
				t.Errorf("roots %+v: want one, frontend's, at 5..12/s", g.Roots)
			}
			if e.FanOut < 2 || e.FanOut > 8 || cur.FanOut < 1 || cur.FanOut > 6 {
				t.Errorf("fan-out frontend→productcatalog %.2f, →currency %.2f: want 2..8 and 1..6", e.FanOut, cur.FanOut)
			}
			if fe := service(t, g, "frontend"); fe.Requests != r.Arrivals.Count {
				t.Errorf("frontend has %d requests but %d roots", fe.Requests, r.Arrivals.Count)
			}
		})
	}
}

func TestRealTrainTicket(t *testing.T) {
	for _, file := range []string{"15_30_trace.csv", "15_31_trace.csv"} {
		t.Run(file, func(t *testing.T) {
			g := build(t, readReal(t, filepath.Join("trastrainer-trainticket", "trace", file)), Options{})
			rate := 0.0
			for _, r := range g.Roots {
				rate += r.Arrivals.Rate
			}
			t.Logf("trainticket %s: %d services, %d edges, %d root operations, root rate %.2f/s, issues %q",
				file, len(g.Services), len(g.Edges), len(g.Roots), rate, g.Issues)
			if len(g.Services) < 20 || len(g.Edges) < 30 {
				t.Errorf("%d services, %d edges: want at least 20 and 30", len(g.Services), len(g.Edges))
			}
			edge(t, g, "ts-gateway-service", "ts-travel-service")
			for _, r := range g.Roots {
				if r.Service != "ts-gateway-service" {
					t.Errorf("root at %s %q, want every root at the gateway", r.Service, r.Operation)
				}
			}
		})
	}
}

func TestRealZipkin(t *testing.T) {
	for _, c := range []struct {
		file             string
		services, edges  int // at least
		thinkGapRequests int // at least this many Long requests
	}{
		{"yelp.json", 6, 5, 0},
		{"ascend.json", 3, 2, 0},
		{"smartthings-oauth-authorization.json", 8, 7, 0},
		{"smartthings-mobile-web-install.json", 16, 15, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			g := build(t, readReal(t, filepath.Join("zipkin", c.file)), Options{})
			long := 0
			for _, s := range g.Services {
				long += s.Long
			}
			t.Logf("zipkin %s: %d services, %d edges, %d roots, %d long requests, issues %q",
				c.file, len(g.Services), len(g.Edges), len(g.Roots), long, g.Issues)
			if len(g.Services) < c.services || len(g.Edges) < c.edges {
				t.Errorf("%d services, %d edges: want at least %d and %d", len(g.Services), len(g.Edges), c.services, c.edges)
			}
		})
	}
}

func TestRealOTLP(t *testing.T) {
	g := build(t, readReal(t, filepath.Join("otlp", "trace.json")), Options{})
	// The spec's one span names a parent that is not in the file.
	if len(g.Services) != 1 || g.Services[0].Name != "my.service" || len(g.Issues) != 1 {
		t.Errorf("services %+v issues %q", g.Services, g.Issues)
	}
}
