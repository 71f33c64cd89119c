package topology

import (
	"time"

	"math/rand/v2"
	"testing"

	"github.com/ressim/ressim/sim/metrics"
)

// TestIntervalHistogram records values in intervals, some measured and
// some not, and requires each interval's histogram and the window's to
// equal histograms that recorded the same values directly: the interval's
// every value, the window's the measured ones, including those recorded
// after the last interval closed (flush).
func TestIntervalHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h intervalHistogram
	var win, wantWin metrics.Histogram
	for iv := 0; iv < 6; iv++ {
		var want metrics.Histogram
		// Interval 0 is all warm-up, 1 mixed, the rest measured; 3 is empty.
		for i := 0; i < 200 && iv != 3; i++ {
			v := int64(rng.ExpFloat64() * 1e7)
			measured := iv > 1 || (iv == 1 && i%3 == 0)
			h.of(measured).Record(v)
			want.Record(v)
			if measured {
				wantWin.Record(v)
			}
		}
		got := h.close(&win)
		if !sameHistogram(got, &want) {
			t.Errorf("interval %d: got %v, want %v", iv, got.Snapshot(), want.Snapshot())
		}
		if !sameHistogram(&win, &wantWin) {
			t.Errorf("window after interval %d: got %v, want %v", iv, win.Snapshot(), wantWin.Snapshot())
		}
		h.reset()
	}
	h.of(true).Record(5e6)
	h.of(false).Record(7e6)
	wantWin.Record(5e6)
	h.flush(&win)
	if !sameHistogram(&win, &wantWin) {
		t.Errorf("window after flush: got %v, want %v", win.Snapshot(), wantWin.Snapshot())
	}
	if h.in.Count() != 0 || h.out.Count() != 0 {
		t.Errorf("flush left %d and %d values", h.in.Count(), h.out.Count())
	}
}

func sameHistogram(a, b *metrics.Histogram) bool {
	sa, sb := a.Snapshot(), b.Snapshot()
	if sa.Count != sb.Count || sa.Sum != sb.Sum || sa.Min != sb.Min || sa.Max != sb.Max || len(sa.Buckets) != len(sb.Buckets) {
		return false
	}
	for i := range sa.Buckets {
		if sa.Buckets[i] != sb.Buckets[i] {
			return false
		}
	}
	return true
}

// TestLastInstantLatencies checks that a request answered at the run's
// last instant, after the series closed its last interval, still counts
// in the window's latency histograms. One closed-loop user sends every
// 100 ms to a service that takes exactly 100 ms: the tenth answer comes
// at 1 s, the end, after the series event scheduled at the start.
func TestLastInstantLatencies(t *testing.T) {
	cfg := Config{Name: "edge", Duration: time.Second, Interval: time.Second, Seed: 1,
		Clients:  []ClientConfig{{Name: "user", Target: "api", Users: 1}},
		Services: []ServiceConfig{{Name: "api", Workers: 1, Steps: work(constant(100 * ms))}},
	}
	res := mustRun(t, cfg)
	c, s := res.Clients[0], res.Services[0]
	if c.Good != 10 {
		t.Fatalf("%d good answers, want 10 (the last at the end instant)", c.Good)
	}
	if n := c.Latency.Count(); n != c.Good+c.Degraded+c.Late {
		t.Errorf("client latency has %d values, want one per answer: %d", n, c.Good+c.Degraded+c.Late)
	}
	if n := s.Sojourn.Count(); n != s.Completed {
		t.Errorf("service sojourn has %d values, want one per completion: %d", n, s.Completed)
	}
}
