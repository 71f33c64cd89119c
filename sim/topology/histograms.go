package topology

import (
	"time"

	"github.com/ressim/ressim/sim/metrics"
)

// HistogramKey names one latency histogram a run records per interval at
// the fixed LatencyBucketBounds: what is measured and what carries it.
// It is the histogram part of the metric contract (SeriesKey is the
// time-series part).
type HistogramKey struct {
	Name  string
	Owner SeriesOwner
}

// The latency histograms: the same values as the clients' latency_p50/p99
// and the services' latency_* columns, bucketed.
var (
	// ClientLatencyHistogram is the latency of a client's answered
	// requests (good, degraded, late), from the intended send time.
	ClientLatencyHistogram = HistogramKey{"latency", OwnerClient}
	// ServiceSojournHistogram is a service's sojourn time, arrival to
	// response, of the requests that finished.
	ServiceSojournHistogram = HistogramKey{"sojourn", OwnerService}
)

// HistogramKeys returns every latency histogram a run records.
func HistogramKeys() []HistogramKey {
	return []HistogramKey{ClientLatencyHistogram, ServiceSojournHistogram}
}

// LatencyBucketBounds returns the upper bounds (Prometheus' le) of the
// latency histograms, Prometheus' default buckets (5 ms to 10 s)
// extended down to 1 ms and up to 60 s, which covers the bundled
// experiments' service times (a few ms) to their longest timeouts and
// deadlines (seconds): 1, 2.5, 5, 10, 25, 50, 100, 250, 500 ms, 1, 2.5, 5,
// 10, 30, 60 s. Each bucket is 2-3x as wide as the one below, so a
// quantile read from the buckets (histogram_quantile) is off by at most
// the width of its bucket. The returned slice is new on every call.
func LatencyBucketBounds() []time.Duration {
	ms, s := time.Millisecond, time.Second
	return []time.Duration{ms, 2500 * time.Microsecond, 5 * ms, 10 * ms, 25 * ms, 50 * ms, 100 * ms,
		250 * ms, 500 * ms, s, 2500 * ms, 5 * s, 10 * s, 30 * s, 60 * s}
}

// HistogramSeries is one entity's latency histogram over the run: per
// interval of the time series, the count of values at most each of
// LatencyBucketBounds, the count and the sum (nanoseconds). A value is
// counted as its histogram quantiles report it, within 0.39 % (see
// metrics.Histogram.CumulativeCounts). Memory: (15 + 2) x 8 = 136 bytes
// per interval and entity.
type HistogramSeries struct {
	Entity  string
	Key     HistogramKey
	Buckets *metrics.BucketSeries
}

// newBucketSeries returns an empty series at LatencyBucketBounds.
func newBucketSeries(entity string, k HistogramKey) (HistogramSeries, error) {
	bs := LatencyBucketBounds()
	ns := make([]int64, len(bs))
	for i, b := range bs {
		ns[i] = int64(b)
	}
	b, err := metrics.NewBucketSeries(ns)
	return HistogramSeries{Entity: entity, Key: k, Buckets: b}, err
}
