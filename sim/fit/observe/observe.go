package observe

import "github.com/ressim/ressim/sim/telemetry"

// Observations is a system's metrics by meaning. Slices are sorted by
// name (services, clients) or by (caller, callee, operation) (edges).
type Observations struct {
	Services []Service
	Clients  []Client
	Edges    []Edge
	// Preset names the convention the series were read by.
	Preset string
	// Notes are the preset's remarks on what it found or missed, one
	// line each (a histogram in milliseconds rescaled, a series skipped
	// and why).
	Notes []string
}

// Service is one service's metrics; nil fields were not found.
type Service struct {
	Name string
	// Requests counts requests that reached the service (cumulative).
	Requests *Counter
	// Handled counts requests the service finished (cumulative); nil if
	// the convention only counts arrivals or only completions (then
	// Requests holds whichever exists).
	Handled *Counter
	// Errors counts finished requests that failed (cumulative).
	Errors *Counter
	// Latency is the server-side latency (arrival to response) of the
	// finished requests, in seconds.
	Latency *Histogram
	// Busy is the time-average number of requests being worked on
	// (busy workers, in-flight, active requests).
	Busy *Gauge
	// Workers is the pool size: workers (or concurrency slots) over all
	// instances.
	Workers *Gauge
}

// Client is one source of user requests: the traffic that enters the
// system from outside.
type Client struct {
	Name string
	// Target and Operation are the service (and operation) the client
	// calls, "" if the convention does not say.
	Target, Operation string
	// Requests counts the requests sent (cumulative).
	Requests *Counter
	// Good counts the requests answered in full and in time; nil if not
	// known.
	Good *Counter
	// Latency is the client-side latency of answered requests, seconds.
	Latency *Histogram
}

// Edge is one caller-to-callee call path.
type Edge struct {
	Caller, Callee, Operation string
	// Calls counts the attempts sent over the edge (cumulative).
	Calls *Counter
	// Retries counts the retry attempts among Calls, nil if unknown.
	Retries *Counter
	// Latency is the caller-side latency of the calls, in seconds; nil
	// if the convention has none (then the callee's Latency stands in).
	Latency *Histogram
}

// Ref names one series a quantity was built from.
type Ref struct {
	// ID is the series in PromQL notation, name{label="value",...}.
	ID     string
	Origin telemetry.Origin
}

// Counter is a cumulative count over time: the sum of the counter series
// in Refs, with resets already undone, at the times all of them share.
type Counter struct {
	Points []telemetry.Point
	Refs   []Ref
}

// Gauge is a level over time: the sum of the gauge series in Refs at the
// times all of them share.
type Gauge struct {
	Points []telemetry.Point
	Refs   []Ref
}

// Histogram is a cumulative latency histogram over time.
type Histogram struct {
	// Bounds are the buckets' upper bounds in seconds, ascending; the
	// last is +Inf.
	Bounds []float64
	// Points are the cumulative bucket counts (one per bound, each
	// counting observations <= its bound, so non-decreasing along the
	// bounds), the sum of observations in seconds (NaN if unknown) and
	// their count, at each sample time, summed over the series in Refs.
	Points []HistogramPoint
	Refs   []Ref
}

// HistogramPoint is a Histogram at one time.
type HistogramPoint struct {
	T      int64 // milliseconds since the Unix epoch
	Counts []float64
	Sum    float64
	Count  float64
}
