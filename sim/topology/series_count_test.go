package topology

import (
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
)

// TestSeriesColumnsMatchModel: SeriesColumns counts the columns a built
// model records, and SeriesLabels names them in order, where names
// coincide too: two steps calling db from api (one site name, one set of
// columns), a parallel step calling db's default handler and its
// operation "call" (the same name again), and a client named like the
// service it calls (they share degraded, latency_p50 and latency_p99).
// Summed per entity, the count was 18 too many here.
func TestSeriesColumnsMatchModel(t *testing.T) {
	brk := breaker.DefaultConfig()
	guarded := CallPolicy{Retry: retries(2), Guards: CallGuards{Breaker: &brk}}
	cfg := Config{Name: "cols", Duration: time.Second,
		Clients: []ClientConfig{{Name: "api", Target: "api", Rate: 10, Call: CallPolicy{Retry: retries(3)}}},
		Services: []ServiceConfig{
			{Name: "api", Workers: 2, Steps: []Step{
				callStep("db", true, guarded),
				callStep("db", true, CallPolicy{Retry: retries(2)}),
				{Kind: ParallelStep, Calls: []CallConfig{
					{Service: "db", Critical: true, Policy: guarded},
					{Service: "db", Operation: "call", Critical: true, Policy: guarded},
				}},
			}},
			{Name: "db", Workers: 2, Steps: work(constant(time.Millisecond))},
		},
	}
	res := mustRun(t, cfg)
	// totals 2, client 7, api 18 + db 18 - 3 shared with the client, the
	// site api->db/call 6, the client's site 3
	if got, want := cfg.SeriesColumns(), 2+7+18+18-3+6+3; got != want {
		t.Errorf("SeriesColumns = %d, want %d", got, want)
	}
	cols, labels := res.Series.Columns(), cfg.SeriesLabels()
	if len(cols) != len(labels) {
		t.Fatalf("the model records %d columns, SeriesLabels lists %d", len(cols), len(labels))
	}
	for i, c := range cols {
		if l := labels[i]; c.Entity() != l.Entity || c.Metric() != l.Key.Name || c.Unit() != l.Key.Unit {
			t.Errorf("column %d is %s %s (%s), SeriesLabels says %s %s (%s)", i, c.Entity(), c.Metric(), c.Unit(), l.Entity, l.Key.Name, l.Key.Unit)
		}
	}
}

// TestEverySiteHasAttempts: every call site records its attempts, guarded
// or not, a client's included, and the column integrates to the site's
// attempts in the result (no warm-up, so the window is the whole run).
func TestEverySiteHasAttempts(t *testing.T) {
	cfg := Config{Name: "edges", Duration: 2 * time.Second, Interval: 500 * time.Millisecond,
		Clients: []ClientConfig{{Name: "users", Target: "api", Rate: 50}},
		Services: []ServiceConfig{
			{Name: "api", Workers: 4, Steps: []Step{
				callStep("db", true, CallPolicy{}),
				callStep("cache", true, CallPolicy{Retry: retries(2)}),
			}},
			{Name: "db", Workers: 2, Steps: work(constant(time.Millisecond))},
			{Name: "cache", Workers: 2, Steps: work(constant(time.Millisecond))},
		},
	}
	res := mustRun(t, cfg)
	if len(res.Calls) != 3 {
		t.Fatalf("%d call sites, want 3", len(res.Calls))
	}
	ts := res.Series
	for _, c := range res.Calls {
		name := c.Caller + "->" + c.Callee + "/" + c.Operation
		col := ts.Find(name, SiteAttempts.Name)
		if col == nil {
			t.Errorf("site %s has no %s column", name, SiteAttempts.Name)
			continue
		}
		var sum float64
		for i := range ts.Len() {
			sum += col.Value(i) * time.Duration(ts.End(i)-ts.Start(i)).Seconds()
		}
		if c.Attempts == 0 || math.Abs(sum-float64(c.Attempts)) > 1e-6 {
			t.Errorf("site %s: the attempts column sums to %g, the result says %d", name, sum, c.Attempts)
		}
		if hasRetries := ts.Find(name, SiteRetries.Name) != nil; hasRetries != (c.Callee == "cache") {
			t.Errorf("site %s: retries column %v, want it only with a retry policy", name, hasRetries)
		}
	}
}
