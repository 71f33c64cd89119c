package openmetrics

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool"
	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/sim/topology"
)

// TestHistogramCumulative: every bucket series is a counter (never
// decreasing), the buckets are cumulative in le, +Inf equals _count, and
// there is one histogram metric per client and per service.
func TestHistogramCumulative(t *testing.T) {
	res := runFile(t, "../../../experiments/alerts/degraded-200.toml")
	all, err := Collect(res)
	if err != nil {
		t.Fatal(err)
	}
	n := histogramGroup()
	seen := 0
	for i := 0; i < len(all); i++ {
		if all[i].Family.Type != Histogram {
			continue
		}
		group := all[i : i+n]
		i += n - 1
		seen++
		for k := range group[0].Points {
			for j, s := range group {
				if k > 0 && s.Points[k].V < s.Points[k-1].V {
					t.Fatalf("%s%v decreases at %v", s.Name, s.Labels, s.Points[k].T)
				}
				if j > 0 && j < n-1 && s.Points[k].V < group[j-1].Points[k].V {
					t.Fatalf("%s%v below the previous bucket at %v", s.Name, s.Labels, s.Points[k].T)
				}
			}
			if inf, cnt := group[n-3].Points[k].V, group[n-2].Points[k].V; inf != cnt {
				t.Fatalf("%v: +Inf bucket %v, _count %v", group[0].Labels, inf, cnt)
			}
		}
	}
	if want := len(res.Clients) + len(res.Services); seen != want {
		t.Errorf("%d histogram metrics, want %d (one per client and service)", seen, want)
	}
}

// TestHistogramQuantileFromBlock loads degraded-200's export into a TSDB
// block, starts Prometheus on it, and checks that
// histogram_quantile(0.99, rate(..._bucket[1m])) agrees with the
// simulator's own p99 of the users' answered latency within the bucket
// resolution.
//
// The tolerance, derived: the 1-minute window's p99 is the p99 of the
// union of its intervals, which lies between the smallest and the largest
// per-interval p99 (the latency_p99 column): in every interval fewer than
// 99 % of the values lie below its own p99 and at least 99 % at or below
// it, so the same holds for the union. The buckets count a value as the
// histogram's quantiles report it (metrics.Histogram.CumulativeCounts),
// so histogram_quantile picks the bucket holding that union p99 and
// interpolates inside it: the answer lies between the bound below the
// smallest interval p99 and the bound at or above the largest. rate()
// scales every bucket by the same extrapolation factor as long as no
// bucket grew more than 59-fold in the window (Prometheus' clamp to the
// counter's zero), which is why the evaluation times are at least 2
// minutes after every change of regime (start, fault at 4 min, recovery
// after 12 min).
func TestHistogramQuantileFromBlock(t *testing.T) {
	promtooltest.Require(t)
	prom := promtooltest.RequireProgram(t, "prometheus")
	res := runFile(t, "../../../experiments/alerts/degraded-200.toml")
	dir := t.TempDir()
	om, db := filepath.Join(dir, "metrics.om"), filepath.Join(dir, "data")
	if err := os.WriteFile(om, export(t, res, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if r, err := promtool.Run(ctx, nil, "tsdb", "create-blocks-from", "openmetrics", om, db); err != nil || r.Code != 0 {
		t.Fatalf("create-blocks-from: %v exit %d\n%s", err, r.Code, r.Stderr)
	}
	base := promtooltest.StartPrometheus(ctx, t, prom, dir, db)
	const q = `histogram_quantile(0.99, rate(ressim_client_request_duration_seconds_bucket{client="users"}[1m]))`
	p99 := res.Series.Find("users", topology.ClientLatencyP99.Name)
	for _, at := range []time.Duration{2 * time.Minute, 3*time.Minute + 30*time.Second, 7 * time.Minute, 10 * time.Minute, 16 * time.Minute, 19 * time.Minute} {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			got := query(ctx, t, base, q, DefaultStart.Add(at))
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range res.Series.Len() {
				if end := time.Duration(res.Series.End(i)); end > at-time.Minute && end <= at {
					lo, hi = min(lo, p99.Value(i)/1e3), max(hi, p99.Value(i)/1e3)
				}
			}
			below, above := bucketAround(lo, hi)
			if got < below || got > above {
				t.Errorf("at %v: histogram_quantile %.4fs, the simulator's interval p99 in [%.4f, %.4f]s, so want within the buckets' [%g, %g]s", at, got, lo, hi, below, above)
			}
			t.Logf("at %v: histogram_quantile %.4fs; simulator p99 %.4f-%.4fs; bucket bounds [%g, %g]", at, got, lo, hi, below, above)
		})
	}
}

// bucketAround returns the largest bucket bound below lo (0 if none) and
// the smallest at or above hi (+Inf if none), in seconds.
func bucketAround(lo, hi float64) (below, above float64) {
	above = math.Inf(1)
	for _, b := range topology.LatencyBucketBounds() {
		s := b.Seconds()
		if s < lo {
			below = s
		}
		if s >= hi && math.IsInf(above, 1) {
			above = s
		}
	}
	return below, above
}

// TestFallbackByLevel: degraded-200's fallback (level "generic") is
// exported with its level, and the fallback-failed counter is there (0:
// the fallback has no fail_rate); the fallback counter ends at the
// run's count of fallbacks in the window or above (the window excludes
// the warm-up).
func TestFallbackByLevel(t *testing.T) {
	res := runFile(t, "../../../experiments/alerts/degraded-200.toml")
	all, err := Collect(res)
	if err != nil {
		t.Fatal(err)
	}
	var served, failed *Series
	for i := range all {
		switch all[i].Name {
		case "ressim_call_fallback_total":
			served = &all[i]
		case "ressim_call_fallback_failed_total":
			failed = &all[i]
		}
	}
	if served == nil || failed == nil {
		t.Fatalf("fallback series missing: served %v failed %v", served != nil, failed != nil)
	}
	if lv := served.Labels[len(served.Labels)-1]; lv != [2]string{"level", "generic"} {
		t.Errorf("fallback labels %v, want level=generic last", served.Labels)
	}
	last := served.Points[len(served.Points)-1].V
	if want := float64(res.Calls[0].Fallbacks); last < want || want == 0 {
		t.Errorf("fallback counter ends at %v, the window counted %v", last, want)
	}
	if v := failed.Points[len(failed.Points)-1].V; v != 0 {
		t.Errorf("fallback failed %v, want 0 without fail_rate", v)
	}
}
