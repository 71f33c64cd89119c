package callgraph

import "time"

// DefaultThinkGap is the ThinkGap an Options left at zero gets.
const DefaultThinkGap = 10 * time.Second

// DefaultMaxSpans is the MaxSpans an Options left at zero gets.
const DefaultMaxSpans = 2_000_000

// MaxOps is the most operation names a Service lists.
const MaxOps = 64

// MaxPerRequest is the last bucket of Edge.PerRequest: requests making
// more calls than this on an edge are counted in it.
const MaxPerRequest = 64

// Options tunes Build.
type Options struct {
	// ThinkGap is the longest idle gap between two of a request's calls
	// still read as the service's own work. A longer gap (a user pausing
	// between redirects inside one long span) is left out of the
	// request's own time and the request is counted in Service.Long.
	// Zero means DefaultThinkGap; a negative value never leaves a gap
	// out.
	ThinkGap time.Duration
	// MaxSpans is the most spans Build accepts (zero: DefaultMaxSpans).
	MaxSpans int
}

// Graph is the call graph read from a set of spans.
type Graph struct {
	// Services holds every service seen, sorted by name, including those
	// known only as a client span's peer (with no requests).
	Services []Service
	// Edges holds every caller→callee pair with at least one call,
	// sorted by caller then callee.
	Edges []Edge
	// Roots holds the entry points: spans with no parent in the data,
	// grouped by service and operation, sorted by both.
	Roots []Root
	// Issues says what was wrong with the data (orphans, cycles, clock
	// skew, duplicate IDs); Notes what was read in a particular way.
	Issues, Notes []string
}

// Service is what the spans say about one service's requests.
type Service struct {
	Name string
	// Requests counts the service's entry spans; Errors those marked as
	// failed.
	Requests, Errors int
	// Ops lists the requests' distinct operation names, sorted, at most
	// MaxOps of them.
	Ops []string
	// Durations holds each timed request's span duration in seconds,
	// ascending.
	Durations []float64
	// OwnTimes holds each timed request's own time in seconds,
	// ascending: its duration less the union of its calls' intervals
	// (parallel or overlapping calls counted once), less any idle gap
	// between calls longer than the ThinkGap.
	OwnTimes []float64
	// Long counts requests with a gap longer than the ThinkGap.
	Long int
	// ClientEntries counts the entry spans that are client (or
	// producer) spans: a root that calls out, such as a load
	// generator's or a user agent's. A service whose every entry is one
	// is a traffic source, not a server.
	ClientEntries int
}

// Edge is what the spans say about one caller calling one callee.
type Edge struct {
	Caller, Callee string
	// Calls counts the calls; Errors those marked as failed, on the
	// client span or on the callee's server span.
	Calls, Errors int
	// CallerRequests is the caller's Service.Requests.
	CallerRequests int
	// FanOut is Calls / CallerRequests: the mean number of calls a
	// request of the caller makes to the callee.
	FanOut float64
	// PerRequest is the histogram of calls per caller request:
	// PerRequest[k] caller requests made k calls on this edge (the last
	// bucket, at most MaxPerRequest, counts k and more).
	PerRequest []int
	// Pairs counts consecutive pairs (in start order) of timed calls one
	// request makes to this callee; Overlapping those whose second call
	// starts before the earlier calls have all ended.
	Pairs, Overlapping int
	// Parallel is true when most such pairs overlap: the caller issues
	// these calls concurrently rather than one after another.
	Parallel bool
	// Latencies holds each timed call's duration in seconds (the client
	// span's when there is one, else the callee's server span),
	// ascending.
	Latencies []float64
}

// Root is one entry point: the spans with no parent in the data of one
// service and operation.
type Root struct {
	Service, Operation string
	Arrivals           Arrivals
}

// Arrivals describes when a root's spans started.
type Arrivals struct {
	// Count counts the spans; Timed those with a start time.
	Count, Timed int
	// Start and End are the first and the last start times, in
	// nanoseconds since the Unix epoch (0 when none is timed).
	Start, End int64
	// Rate is the arrival rate per second over [Start, End]:
	// (Timed - 1) / (End - Start), the number of gaps over their total
	// length; 0 with fewer than 2 timed spans or End == Start.
	Rate float64
}
