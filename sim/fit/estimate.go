package fit

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/fit/binned"
	"github.com/ressim/ressim/sim/fit/observe"
)

// Options tune Estimate.
type Options struct {
	// Window, if set, is the time range to read; nil chooses the steady
	// window of the total request rate by MSER-5.
	Window *Window
	// Families are the work distributions tried; nil means all four
	// (exponential, Erlang, hyperexponential, lognormal).
	Families []dist.Kind
	// Traces, if set, give the call graph, fan-out and own time per
	// service; they take precedence over what metrics imply.
	Traces *TraceFacts
	// Sources are the input files, for the report and the header.
	Sources []string
}

// Estimate fits a model to obs. It never fails on missing pieces: what
// the data do not give is a placeholder with a note. It fails when no
// traffic can be found at all.
func Estimate(obs *observe.Observations, opt Options) (*Model, error) {
	var w Window
	var err error
	if len(obs.Services) == 0 && len(obs.Clients) == 0 && opt.Traces != nil {
		w.Rule, w.None = "no metrics: the traces alone", true
	} else if w, err = chooseWindow(obs, opt.Window); err != nil {
		return nil, err
	}
	m := &Model{Window: w, Preset: obs.Preset, Sources: opt.Sources}
	m.Notes = append(m.Notes, obs.Notes...)
	if w.End == w.Start && !w.None {
		m.Notes = append(m.Notes, "one sample time: rates, busy workers and fan-out need two scrapes; they are placeholders, and latencies are totals since each process started")
	}
	svcIdx := make(map[string]int, len(obs.Services))
	for i := range obs.Services {
		svcIdx[obs.Services[i].Name] = i
	}
	// Edges by caller, in the observations' (sorted) order.
	byCaller := map[string][]*observe.Edge{}
	for i := range obs.Edges {
		e := &obs.Edges[i]
		byCaller[e.Caller] = append(byCaller[e.Caller], e)
	}
	latMean := func(name string) (float64, string) {
		i, ok := svcIdx[name]
		if !ok {
			return 0, ""
		}
		b, err := histogramIn(obs.Services[i].Latency, w)
		if err != nil || b.Count == 0 {
			return 0, ""
		}
		return b.Mean(), refs(obs.Services[i].Latency.Refs)
	}
	for i := range obs.Services {
		s, err := estimateService(obs, &obs.Services[i], byCaller[obs.Services[i].Name], w, opt, latMean)
		if err != nil {
			return nil, fmt.Errorf("fit: service %s: %w", obs.Services[i].Name, err)
		}
		m.Services = append(m.Services, s)
	}
	tracesOnly := len(obs.Services) == 0 && len(obs.Clients) == 0
	if opt.Traces != nil {
		opt.Traces.apply(m, tracesOnly)
	}
	if tracesOnly && opt.Traces != nil {
		m.Clients = opt.Traces.rootClients(m)
	}
	if len(m.Clients) == 0 {
		m.Clients = estimateClients(obs, m, w)
	}
	if len(m.Clients) == 0 {
		return nil, fmt.Errorf("fit: found no traffic entering the system: no client series, and no service receives more requests than its callers send it")
	}
	sort.Slice(m.Services, func(i, j int) bool { return m.Services[i].Name < m.Services[j].Name })
	breakCycles(m)
	ownErrors(m)
	safeNames(m)
	sort.Slice(m.Services, func(i, j int) bool { return m.Services[i].Name < m.Services[j].Name })
	return m, nil
}

// estimateService fits one service: rates, busy and pool size, calls,
// own work mean by the utilisation law, and its shape by binned maximum
// likelihood with the queue wait and the calls as known components.
func estimateService(obs *observe.Observations, o *observe.Service, edges []*observe.Edge, w Window, opt Options,
	latMean func(string) (float64, string)) (Service, error) {
	s := Service{Name: o.Name}
	win := w.String()
	if r, ok := rate(o.Requests, w); ok {
		s.Arrivals = Value{V: r, From: fmt.Sprintf("rate of %s over %s", refs(o.Requests.Refs), win)}
	} else {
		s.Arrivals = Value{Placeholder: true, From: "no request counter with two samples in the window"}
	}
	thr := o.Handled
	if thr == nil {
		thr = o.Requests
	}
	if r, ok := rate(thr, w); ok {
		s.Throughput = Value{V: r, From: fmt.Sprintf("rate of %s over %s", refs(thr.Refs), win)}
	} else {
		s.Throughput = s.Arrivals
	}
	if b, ok := mean(o.Busy, w); ok {
		s.Busy = Value{V: b, From: fmt.Sprintf("mean of %s over %s", refs(o.Busy.Refs), win)}
	} else {
		s.Busy.Placeholder = true
	}
	if wk, ok := mean(o.Workers, w); ok && wk >= 1 {
		s.Workers = Value{V: math.Round(wk), From: fmt.Sprintf("mean of %s over %s", refs(o.Workers.Refs), win)}
	} else {
		s.Workers.Placeholder = true
	}
	lat, latErr := histogramIn(o.Latency, w)
	if latErr == nil && lat.Count > 0 {
		s.Bounds, s.Observed = lat.Bounds, lat.Counts
	}
	// Calls: fan-out is calls over the caller's finished requests.
	callWait := 0.0
	for _, e := range edges {
		c := Call{Callee: e.Callee, Operation: e.Operation}
		n, ok := rate(e.Calls, w)
		if ok && s.Throughput.V > 0 {
			c.FanOut = Value{V: n / s.Throughput.V, From: fmt.Sprintf("rate of %s over the caller's throughput", refs(e.Calls.Refs))}
		} else {
			c.FanOut = Value{V: 1, Placeholder: true, From: "no call counter with two samples in the window: one call per request assumed"}
		}
		if b, err := histogramIn(e.Latency, w); err == nil && b.Count > 0 {
			c.Latency = b.Mean()
		} else {
			c.Latency, _ = latMean(e.Callee)
		}
		callWait += c.FanOut.V * c.Latency
		s.Calls = append(s.Calls, c)
	}
	// Own work mean: the utilisation law gives the time a request holds
	// a worker; the calls' latency is taken away from it.
	fixed := false
	switch {
	case !s.Busy.Placeholder && s.Throughput.V > 0:
		held := s.Busy.V / s.Throughput.V
		s.Held = Value{V: held, From: "busy workers / throughput (Little's law on the pool)"}
		s.Work = Value{V: held - callWait, From: fmt.Sprintf("held %s less the calls' %s (fan-out x the callees' mean latency)", secs(held), secs(callWait))}
		fixed = true
	case latErr == nil && lat.Count > 0:
		why := "no busy-worker series"
		if !s.Busy.Placeholder {
			why = "no throughput to divide the busy workers by (one scrape?)"
		}
		s.Work = Value{V: lat.Mean() - callWait, From: fmt.Sprintf("mean latency %s less the calls' %s; %s, so no queueing is assumed", secs(lat.Mean()), secs(callWait), why)}
		s.Notes = append(s.Notes, why+": the own work is fitted to the whole latency, queueing included")
	default:
		s.Work = Value{V: 0.01, Placeholder: true, From: "no busy-worker series and no latency histogram"}
	}
	if floor := 0.02 * lat.Mean(); !s.Work.Placeholder && s.Work.V < math.Max(floor, 1e-6) {
		if callWait > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf("the calls account for all of the time held (own work came out %s): own work set to %s, 2 %% of the latency", secs(s.Work.V), secs(math.Max(floor, 1e-6))))
		} else {
			s.Notes = append(s.Notes, fmt.Sprintf("the own work came out %s (a latency sum of zero: latencies under the metric's resolution?): set to %s", secs(s.Work.V), secs(math.Max(floor, 1e-6))))
		}
		s.Work.V = math.Max(floor, 1e-6)
		fixed = false
	}
	// Pool size: from the series, else a placeholder with headroom.
	if s.Workers.Placeholder {
		guess := 100.0
		if !s.Busy.Placeholder {
			guess = math.Max(10, math.Ceil(4*s.Busy.V))
		}
		s.Workers.V = guess
		s.Workers.From = "no pool-size series: 4x the busy workers (at least 10), or 100"
	}
	if s.Workers.V > 0 && !s.Busy.Placeholder {
		s.Utilization = s.Busy.V / s.Workers.V
	}
	// Error ratio: the service's own, less what failed calls explain is
	// not separable from metrics; the whole ratio is taken as its own
	// when it has no calls, else the excess over its callees' errors.
	if n, ok := increase(o.Errors, w); ok {
		d, _ := increase(thr, w)
		if d > 0 {
			s.ErrorRate = Value{V: n / d, From: fmt.Sprintf("increase of %s over that of %s", refs(o.Errors.Refs), refs(thr.Refs))}
		}
	}
	if latErr != nil || lat.Count == 0 {
		s.Notes = append(s.Notes, "no latency histogram in the window: the own work is exponential with the mean above")
		return s, nil
	}
	// Shape: fit X with the queue wait and the calls as known parts.
	var comps []binned.Component
	what := ""
	if !s.Busy.Placeholder && !s.Workers.Placeholder && s.Held.V > 0 {
		pw, wm := queueWait(int(s.Workers.V), s.Busy.V, s.Held.V)
		if pw > 1e-4 && !math.IsInf(wm, 1) {
			comps = append(comps, binned.QueueWait(pw, wm))
			what += fmt.Sprintf(", M/M/%d queue wait (P(wait) %.3g, mean %s)", int(s.Workers.V), pw, secs(wm))
		}
	}
	for i, e := range edges {
		c := s.Calls[i]
		var eb binsIn
		var err error
		src := ""
		if eb, err = histogramIn(e.Latency, w); err == nil && eb.Count > 0 {
			src = refs(e.Latency.Refs)
		} else if j := indexService(obs, e.Callee); j >= 0 {
			eb, err = histogramIn(obs.Services[j].Latency, w)
			if err == nil {
				src = refs(obs.Services[j].Latency.Refs)
			}
		}
		if err != nil || eb.Count == 0 || c.FanOut.V <= 0 {
			continue
		}
		n := int(math.Floor(c.FanOut.V))
		q := c.FanOut.V - float64(n)
		emp, err := binned.Empirical(eb.Bounds, eb.Counts)
		if err != nil {
			continue
		}
		comps = append(comps, binned.Repeat(emp, n, q))
		what += fmt.Sprintf(", %.3g calls to %s (latency %s)", c.FanOut.V, e.Callee, src)
	}
	bopt := binned.Options{Components: comps, Families: opt.Families}
	if fixed {
		bopt.FixedMean = time.Duration(s.Work.V * 1e9)
	}
	bins := binned.Bins{Bounds: lat.Bounds, Counts: lat.Counts}
	best, all, err := binned.Select(bins, bopt)
	if err != nil {
		s.Notes = append(s.Notes, "shape not fitted ("+err.Error()+"): exponential")
		return s, nil
	}
	s.Shape, s.Fits = &best, all
	s.Expected = best.Expected
	if !fixed {
		s.Work.V = best.Params.Mean.Seconds()
		s.Work.From = "fitted mean (binned maximum likelihood)"
	}
	s.ShapeFrom = fmt.Sprintf("binned maximum likelihood on %s (%.0f requests in %d buckets)%s", refs(o.Latency.Refs), lat.Count, len(lat.Bounds), what)
	return s, nil
}

func indexService(obs *observe.Observations, name string) int {
	for i := range obs.Services {
		if obs.Services[i].Name == name {
			return i
		}
	}
	return -1
}

// estimateClients returns the clients: the observed ones with their
// rates (their target from the preset, else the one entry service), or
// one client per entry service with its external arrivals.
func estimateClients(obs *observe.Observations, m *Model, w Window) []Client {
	// External arrivals: arrivals less the calls other services send.
	incoming := map[string]float64{}
	for _, s := range m.Services {
		for _, c := range s.Calls {
			incoming[c.Callee] += c.FanOut.V * s.Throughput.V
		}
	}
	var entries []string
	for _, s := range m.Services {
		if ext := s.Arrivals.V - incoming[s.Name]; s.Arrivals.V > 0 && ext > 0.05*s.Arrivals.V {
			entries = append(entries, s.Name)
		}
	}
	if len(entries) == 0 {
		// No rates (one scrape): the services nobody calls are the
		// entries, with placeholder load.
		called := map[string]bool{}
		for _, s := range m.Services {
			for _, c := range s.Calls {
				called[c.Callee] = true
			}
		}
		for _, s := range m.Services {
			if !called[s.Name] && s.Arrivals.Placeholder {
				entries = append(entries, s.Name)
			}
		}
	}
	var out []Client
	for _, c := range obs.Clients {
		cl := Client{Name: c.Name, Target: c.Target, Operation: c.Operation}
		if r, ok := rate(c.Requests, w); ok {
			cl.Rate = Value{V: r, From: fmt.Sprintf("rate of %s over %s", refs(c.Requests.Refs), w)}
		} else {
			cl.Rate = Value{V: 10, Placeholder: true, From: "no request counter with two samples in the window"}
		}
		if cl.Target == "" {
			if len(entries) != 1 {
				m.Notes = append(m.Notes, fmt.Sprintf("client %s: the series do not say which service it calls, and %d services receive outside traffic; it is left out", c.Name, len(entries)))
				continue
			}
			cl.Target = entries[0]
		}
		out = append(out, cl)
	}
	if len(out) > 0 || len(obs.Clients) > 0 {
		return out
	}
	for _, e := range entries {
		for _, s := range m.Services {
			if s.Name != e {
				continue
			}
			if s.Arrivals.Placeholder {
				out = append(out, Client{Name: "users-" + e, Target: e, Rate: Value{V: 10, Placeholder: true,
					From: fmt.Sprintf("%s is called by no other service; its rate is not in the data (%s)", e, s.Arrivals.From)}})
				continue
			}
			r := s.Arrivals.V - incoming[e]
			out = append(out, Client{Name: "users-" + e, Target: e, Rate: Value{V: r,
				From: fmt.Sprintf("%s's arrivals less the calls its callers send (%s)", e, s.Arrivals.From)}})
		}
	}
	return out
}

// secs formats seconds as a rounded duration ("12.3ms").
func secs(s float64) string {
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return fmt.Sprint(s)
	}
	return roundDuration(time.Duration(s * 1e9)).String()
}

// roundDuration keeps about four significant digits.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= 10*time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}

// ownErrors turns each service's error ratio into its own: a service
// with calls fails when a callee does (the callee's ratio, once per
// call), so the excess over what its calls explain is its own. The
// ratios are small in a healthy system; the first-order sum is used.
func ownErrors(m *Model) {
	ratio := map[string]float64{}
	for _, s := range m.Services {
		ratio[s.Name] = s.ErrorRate.V
	}
	for i := range m.Services {
		s := &m.Services[i]
		if len(s.Calls) == 0 || s.ErrorRate.V == 0 {
			continue
		}
		explained := 0.0
		for _, c := range s.Calls {
			explained += c.FanOut.V * ratio[c.Callee]
		}
		own := math.Max(0, s.ErrorRate.V-explained)
		s.ErrorRate.From += fmt.Sprintf(", less %.3g that failed calls explain", explained)
		s.ErrorRate.V = own
	}
}
