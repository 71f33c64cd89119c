package topology

import (
	"bytes"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/metrics"
)

// TestHistogramSeriesOptIn checks that the per-interval latency histograms
// are recorded only when asked for (Model.RecordHistogramSeries), one per
// client then one per service with a row per interval, and that recording
// them changes nothing else: the time series is byte-identical either way.
func TestHistogramSeriesOptIn(t *testing.T) {
	cfg := Config{Name: "h", Duration: 5 * time.Second, Seed: 3,
		Clients:  []ClientConfig{{Name: "users", Target: "api", Rate: 200}},
		Services: []ServiceConfig{{Name: "api", Workers: 4, Steps: work(dist.Must(exp(10 * ms)))}},
	}
	runIt := func(record bool) *Result {
		t.Helper()
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if record {
			m.RecordHistogramSeries()
		}
		res, err := m.Run()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	off, on := runIt(false), runIt(true)
	if off.Histograms != nil {
		t.Errorf("without RecordHistogramSeries: %d histogram series, want none", len(off.Histograms))
	}
	if len(on.Histograms) != 2 {
		t.Fatalf("with RecordHistogramSeries: %d histogram series, want 2 (users, api)", len(on.Histograms))
	}
	for _, h := range on.Histograms {
		if h.Buckets.Len() != on.Series.Len() {
			t.Errorf("%s: %d intervals of buckets, want %d", h.Entity, h.Buckets.Len(), on.Series.Len())
		}
	}
	var a, b bytes.Buffer
	if err := metrics.WriteCSV(&a, off.Series); err != nil {
		t.Fatal(err)
	}
	if err := metrics.WriteCSV(&b, on.Series); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("recording the histogram series changed the time series")
	}
}
