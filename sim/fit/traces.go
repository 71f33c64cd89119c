package fit

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/ressim/ressim/sim/fit/binned"
	"github.com/ressim/ressim/sim/fit/callgraph"
)

// minOwnSamples is how many own-time samples a service's traces need for
// their shape to replace the one fitted to its latency histogram: at 200
// samples the AIC tells the four families apart at the shapes the round
// trip uses (sim/fit/testdata/roundtrip.toml, 1 trace in 20).
const minOwnSamples = 200

// TraceFacts are what traces say about a system: the call graph with the
// fan-out of every edge, whether a request's calls overlap, and each
// service's own time per request (span time less its calls). Estimate
// lets them override what metrics imply.
type TraceFacts struct {
	// Source names the trace files, for the comments.
	Source   string
	Services []TraceService // sorted by name
	Edges    []TraceEdge    // sorted by caller, then callee
	Roots    []TraceRoot    // sorted by service, then operation
	// Notes are the call graph's issues (orphan spans, clock skew).
	Notes []string
}

// TraceService is one service as its server spans show it.
type TraceService struct {
	Name string
	// Requests is the number of server spans.
	Requests int
	// OwnTimes are the requests' own times in seconds: span duration
	// less the union of its calls' intervals.
	OwnTimes []float64
	// MeanDuration is the mean server span duration, seconds.
	MeanDuration float64
	// Source is true when every entry span of the "service" is a root
	// client span: a load generator or a ressim client, whose calls are
	// a client's target, not a service's calls.
	Source bool
}

// TraceEdge is one caller-to-callee edge.
type TraceEdge struct {
	Caller, Callee string
	// Calls is the number of call spans, CallerRequests the caller's
	// requests they came from; FanOut = Calls / CallerRequests.
	Calls, CallerRequests int
	FanOut                float64
	// Parallel is true when most requests' calls to the callee overlap.
	Parallel bool
	// Latency is the calls' mean duration as the caller sees them,
	// seconds.
	Latency float64
}

// TraceRoot is an entry point: spans with no parent.
type TraceRoot struct {
	Service, Operation string
	Count              int
	// Rate is root spans per second over their time span (0 with fewer
	// than two); sampled traces undercount it by the sampling ratio.
	Rate float64
}

// FromGraph condenses a call graph built from spans; source names the
// trace files.
func FromGraph(g *callgraph.Graph, source string) *TraceFacts {
	t := &TraceFacts{Source: source}
	for _, s := range g.Services {
		t.Services = append(t.Services, TraceService{Name: s.Name, Requests: s.Requests, OwnTimes: s.OwnTimes, MeanDuration: meanOf(s.Durations),
			Source: s.Requests > 0 && s.ClientEntries == s.Requests && !called(g, s.Name)})
	}
	for _, e := range g.Edges {
		t.Edges = append(t.Edges, TraceEdge{Caller: e.Caller, Callee: e.Callee, Calls: e.Calls,
			CallerRequests: e.CallerRequests, FanOut: e.FanOut, Parallel: e.Parallel, Latency: meanOf(e.Latencies)})
	}
	for _, r := range g.Roots {
		t.Roots = append(t.Roots, TraceRoot{Service: r.Service, Operation: r.Operation, Count: r.Arrivals.Count, Rate: r.Arrivals.Rate})
	}
	t.Notes = append(t.Notes, g.Issues...)
	sort.Slice(t.Services, func(i, j int) bool { return t.Services[i].Name < t.Services[j].Name })
	sort.Slice(t.Edges, func(i, j int) bool {
		if t.Edges[i].Caller != t.Edges[j].Caller {
			return t.Edges[i].Caller < t.Edges[j].Caller
		}
		return t.Edges[i].Callee < t.Edges[j].Callee
	})
	sort.Slice(t.Roots, func(i, j int) bool {
		if t.Roots[i].Service != t.Roots[j].Service {
			return t.Roots[i].Service < t.Roots[j].Service
		}
		return t.Roots[i].Operation < t.Roots[j].Operation
	})
	return t
}

// apply puts the traces' facts onto m: every traced edge's fan-out and
// overlap replace the metrics' (which can only say calls per request on
// average, and nothing of overlap); services only the traces know are
// added with placeholders for what spans cannot say (pool size); a
// service whose metrics gave no own work or no shape gets them from its
// own-time samples.
//
// With tracesOnly (no metrics at all) nothing is "only in the traces",
// so no note says it.
func (t *TraceFacts) apply(m *Model, tracesOnly bool) {
	for _, n := range t.Notes {
		m.Notes = append(m.Notes, "traces: "+n)
	}
	idx := func(name string) int {
		for i := range m.Services {
			if m.Services[i].Name == name {
				return i
			}
		}
		return -1
	}
	// Visits per entry request turn the roots' rate into each traced
	// service's; like the roots', it undercounts sampled traces.
	roots, rootRate := 0, 0.0
	for _, r := range t.Roots {
		roots += r.Count
		rootRate += r.Rate
	}
	for _, ts := range t.Services {
		if idx(ts.Name) < 0 && !ts.Source {
			arr := Value{Placeholder: true, From: "only in the traces"}
			if roots > 0 && rootRate > 0 {
				arr = Value{V: rootRate * float64(ts.Requests) / float64(roots), Placeholder: true,
					From: fmt.Sprintf("traces (%s): %d requests per %d root spans at %.3g roots/s; sampled traces undercount it", t.Source, ts.Requests, roots, rootRate)}
			}
			m.Services = append(m.Services, Service{Name: ts.Name,
				Arrivals:   arr,
				Throughput: arr,
				Busy:       Value{Placeholder: true},
				Workers:    Value{V: 100, Placeholder: true, From: "only in the traces: spans do not show a pool size"},
				Work:       Value{V: 0.01, Placeholder: true, From: "no samples"},
				Notes:      onlyIn(!tracesOnly, "found only in the traces: no metrics name it")})
		}
	}
	// A callee seen only from its callers (a database or cache with no
	// spans of its own, or an unnamed peer): its work is what the calls
	// to it take.
	for _, e := range t.Edges {
		if idx(e.Callee) >= 0 || t.isSource(e.Callee) {
			continue
		}
		if ts := t.service(e.Callee); ts != nil && ts.Requests > 0 {
			continue
		}
		// The mean of all the calls to it, each caller's mean weighted
		// by its count (not the slowest caller's: a few long queries
		// would make every call that slow).
		sum, n := 0.0, 0
		for _, f := range t.Edges {
			if f.Callee == e.Callee && f.Latency > 0 && f.Calls > 0 {
				sum += float64(f.Calls) * f.Latency
				n += f.Calls
			}
		}
		work := Value{V: 0.01, Placeholder: true, From: "no timed calls"}
		if lat := sum / float64(max(n, 1)); lat > 0 {
			work = Value{V: lat, From: fmt.Sprintf("traces (%s): the mean duration of the calls to it (it has no spans of its own)", t.Source)}
		}
		m.Services = append(m.Services, Service{Name: e.Callee,
			Arrivals:   Value{Placeholder: true, From: "only in the traces"},
			Throughput: Value{Placeholder: true, From: "only in the traces"},
			Busy:       Value{Placeholder: true},
			Workers:    Value{V: 100, Placeholder: true, From: "only in the traces: spans do not show a pool size"},
			Work:       work,
			Notes:      []string{"seen only as a callee in the traces (no spans of its own)"}})
	}
	for _, e := range t.Edges {
		i := idx(e.Caller)
		if i < 0 {
			continue // a caller without server spans (a client): a root, not a service
		}
		s := &m.Services[i]
		from := fmt.Sprintf("traces (%s): %d calls over %d requests of %s", t.Source, e.Calls, e.CallerRequests, e.Caller)
		// What a call takes beyond the callee's span is the network (and
		// the callee's queue before its span starts): half each way.
		var net Value
		if callee := t.service(e.Callee); callee != nil && callee.MeanDuration > 0 && e.Latency > 0 {
			if gap := e.Latency - callee.MeanDuration; gap > 0.05*e.Latency && gap > 1e-5 {
				net = Value{V: gap / 2, From: fmt.Sprintf("traces (%s): half of the calls' mean %s less %s's mean span %s, exponential",
					t.Source, secs(e.Latency), e.Callee, secs(callee.MeanDuration))}
			}
		}
		found := false
		for k := range s.Calls {
			if s.Calls[k].Callee == e.Callee {
				// Counters count every call; traces are usually a
				// sample: the metrics' fan-out stands when they have one.
				if s.Calls[k].FanOut.Placeholder {
					s.Calls[k].FanOut = Value{V: e.FanOut, From: from}
				} else if math.Abs(s.Calls[k].FanOut.V-e.FanOut) > 0.1*math.Max(e.FanOut, 0.1) {
					s.Notes = append(s.Notes, fmt.Sprintf("calls to %s: the metrics give %.3g per request, the traces %.3g (%d requests); the metrics' figure is used",
						e.Callee, s.Calls[k].FanOut.V, e.FanOut, e.CallerRequests))
				}
				s.Calls[k].Parallel = e.Parallel
				s.Calls[k].Network = net
				found = true
			}
		}
		if !found {
			s.Calls = append(s.Calls, Call{Callee: e.Callee, FanOut: Value{V: e.FanOut, From: from}, Parallel: e.Parallel, Latency: e.Latency, Network: net})
			s.Notes = append(s.Notes, onlyIn(!tracesOnly, fmt.Sprintf("the call to %s is only in the traces", e.Callee))...)
		}
	}
	for _, ts := range t.Services {
		if idx(ts.Name) < 0 {
			continue // a traffic source
		}
		s := &m.Services[idx(ts.Name)]
		own := positive(ts.OwnTimes)
		if len(own) == 0 {
			continue
		}
		mean := 0.0
		for _, x := range own {
			mean += x
		}
		mean /= float64(len(own))
		if s.Work.Placeholder || s.Shape == nil {
			s.Work = Value{V: mean, From: fmt.Sprintf("traces (%s): mean own time (span less its calls) of %d requests", t.Source, len(own))}
		}
		// Own times are direct samples of the own work; a histogram of
		// the whole latency only shows it convolved with the queue and
		// the calls. The spans' family wins when there are enough of
		// them (minOwnSamples) and it differs from the histogram's, or
		// the metrics gave none; the metrics' mean, from every request,
		// is kept when it exists, and so are the histogram's shape
		// parameters when both choose one family.
		if s.Shape != nil && len(own) < minOwnSamples || len(own) < 50 {
			continue
		}
		bins := sampleBins(own)
		opt := binned.Options{}
		fixed := !s.Work.Placeholder && s.Shape != nil
		if fixed {
			opt.FixedMean = time.Duration(s.Work.V * 1e9)
		}
		best, all, err := binned.Select(bins, opt)
		if err != nil {
			s.Notes = append(s.Notes, "own-time shape not fitted: "+err.Error())
			continue
		}
		if s.Shape != nil && s.Shape.Params.Kind == best.Params.Kind {
			// Same family: the histogram's parameters rest on every
			// request, the spans' on a sample.
			continue
		}
		if s.Shape != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("the latency histogram (with the queue and calls taken out) chose %s; the own times of %d spans choose %s, which is used", s.Shape.Params.Kind, len(own), best.Params.Kind))
		}
		s.Shape, s.Fits, s.OwnTimes = &best, all, true
		s.Bounds, s.Observed, s.Expected = bins.Bounds, bins.Counts, best.Expected
		if !fixed {
			s.Work.V = best.Params.Mean.Seconds()
		}
		s.ShapeFrom = fmt.Sprintf("binned maximum likelihood on the own times of %d server spans (%s), in %d log-spaced bins", len(own), t.Source, len(bins.Bounds))
	}
	sort.Slice(m.Services, func(i, j int) bool { return m.Services[i].Name < m.Services[j].Name })
}

// rootClients returns one client per traced entry point, for a fit whose
// metrics name no traffic source. Their rates are what the traces show,
// a lower bound when the traces were sampled: marked placeholders.
func (t *TraceFacts) rootClients(m *Model) []Client {
	var out []Client
	for _, r := range t.Roots {
		if ts := t.service(r.Service); ts != nil && ts.Source && r.Rate > 0 {
			// A traced client: its target is the callee of its calls.
			for _, e := range t.Edges {
				if e.Caller == r.Service {
					out = append(out, Client{Name: r.Service, Target: e.Callee,
						Rate: Value{V: r.Rate * e.FanOut, Placeholder: true, From: fmt.Sprintf("traces (%s): %d root spans per second calling %s; sampled traces undercount it by the sampling ratio", t.Source, r.Count, e.Callee)}})
				}
			}
			continue
		}
		known := false
		for _, s := range m.Services {
			known = known || s.Name == r.Service
		}
		if !known {
			continue
		}
		rate := Value{V: r.Rate, Placeholder: true, From: fmt.Sprintf("traces (%s): %d root spans per second; sampled traces undercount it by the sampling ratio", t.Source, r.Count)}
		if r.Rate <= 0 {
			rate = Value{V: 10, Placeholder: true, From: fmt.Sprintf("traces (%s): %d root span(s), too few for a rate", t.Source, r.Count)}
		}
		out = append(out, Client{Name: "users-" + r.Service, Target: r.Service, Operation: r.Operation, Rate: rate})
	}
	return out
}

// positive returns the finite positive samples.
func positive(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// sampleBins bins raw samples (seconds) into log-spaced bins from half
// the smallest to the largest, plus +Inf. The count is Rice's rule,
// 2 n^(1/3), within [10, 40]: 12 bins for 200 spans, 40 from 8000 on,
// fine enough that binning costs little information against raw
// maximum likelihood and coarse enough that a bin holds several samples.
func sampleBins(xs []float64) binned.Bins {
	lo, hi := math.Inf(1), 0.0
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	lo /= 2
	hi *= 1.0001
	n := int(math.Min(40, math.Max(10, math.Ceil(2*math.Cbrt(float64(len(xs)))))))
	b := binned.Bins{Bounds: make([]float64, n+1), Counts: make([]float64, n+1)}
	r := math.Pow(hi/lo, 1/float64(n))
	for i := range n {
		b.Bounds[i] = lo * math.Pow(r, float64(i+1))
	}
	b.Bounds[n-1] = hi
	b.Bounds[n] = math.Inf(1)
	for _, x := range xs {
		i := sort.SearchFloat64s(b.Bounds, x)
		b.Counts[i]++
	}
	return b
}

// onlyIn returns the note when say is true.
func onlyIn(say bool, note string) []string {
	if !say {
		return nil
	}
	return []string{note}
}

// service returns the traced service called name, or nil.
func (t *TraceFacts) service(name string) *TraceService {
	for i := range t.Services {
		if t.Services[i].Name == name {
			return &t.Services[i]
		}
	}
	return nil
}

// meanOf returns the mean of xs, 0 for none.
func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// isSource reports whether name is a traced traffic source.
func (t *TraceFacts) isSource(name string) bool {
	ts := t.service(name)
	return ts != nil && ts.Source
}

// called reports whether any edge of g calls name.
func called(g *callgraph.Graph, name string) bool {
	for _, e := range g.Edges {
		if e.Callee == name {
			return true
		}
	}
	return false
}
