package fit

import (
	"github.com/ressim/ressim/sim/fit/binned"
)

// Model is a fitted system: what Write turns into an experiment and
// Report explains. Slices are sorted by name.
type Model struct {
	Window Window
	// Preset is the naming convention the metrics were read by.
	Preset string
	// Sources are the input files (metrics, then traces), as given.
	Sources  []string
	Clients  []Client
	Services []Service
	// Notes are remarks on the fit as a whole: what could not be
	// identified, what was assumed.
	Notes []string
}

// Value is one fitted number with where it came from.
type Value struct {
	V float64
	// From names the series (or trace file) and the computation.
	From string
	// Placeholder is true when the data did not give the value and a
	// stated default stands in; the experiment marks it PLACEHOLDER.
	Placeholder bool
}

// Client is a source of user requests.
type Client struct {
	Name, Target, Operation string
	// Rate is requests per second.
	Rate Value
}

// Call is one downstream call a service's request makes.
type Call struct {
	Callee, Operation string
	// FanOut is the calls per request of the caller (4.7: four calls,
	// and a fifth in 70 % of requests).
	FanOut Value
	// Parallel is true when traces show the calls of one request overlap.
	Parallel bool
	// Latency is the mean latency of a call as the caller sees it, in
	// seconds (the callee's when the caller's side is not measured).
	Latency float64
	// Network is the one-way network delay's mean, in seconds: half of
	// what a call takes beyond the callee's own span (traces only; the
	// zero Value means none).
	Network Value
}

// Service is one fitted service.
type Service struct {
	Name string
	// Arrivals and Throughput are requests per second reaching and
	// leaving the service.
	Arrivals, Throughput Value
	// Busy is the mean number of busy workers; Workers the pool size.
	Busy, Workers Value
	// Utilization is Busy / Workers (0 when either is unknown).
	Utilization float64
	// Held is the mean time a request holds a worker, in seconds: Busy /
	// Throughput by Little's law.
	Held Value
	// Work is the mean of the service's own work per request, in
	// seconds: Held less the time spent waiting on calls.
	Work Value
	// Shape is the chosen distribution of the own work (nil: the data had
	// no histogram; an exponential placeholder stands in); Fits are every
	// family tried, best first.
	Shape *binned.Result
	Fits  []binned.Result
	// ShapeFrom names the histogram (or trace samples) the shape was
	// fitted to and the components taken as known.
	ShapeFrom string
	// OwnTimes is true when the shape was fitted to the spans' own
	// times (then Observed holds their binned counts) rather than to a
	// latency histogram.
	OwnTimes bool
	// Observed is the latency histogram over the window: the buckets'
	// upper bounds (seconds) and counts; Expected the fitted model's
	// counts in the same buckets (for the report's figure).
	Bounds, Observed, Expected []float64
	// ErrorRate is the share of the service's own answers that fail.
	ErrorRate Value
	Calls     []Call
	// Notes are remarks on this service's fit.
	Notes []string
}
