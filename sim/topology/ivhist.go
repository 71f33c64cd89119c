package topology

import "github.com/ressim/ressim/sim/metrics"

// intervalHistogram is one series interval's latencies, recorded once
// each although they feed two histograms: the interval's (every value)
// and the measurement window's (the values of measured requests). The
// values are kept in two parts, in (measured) and out (sent before the
// warm-up ended); closing the interval merges in into the window's
// histogram. metrics.Histogram.Merge is exact, so the window's histogram
// ends up the same as if every measured value had been recorded in it
// too, for a merge per interval instead of a second record per value
// (a record is a few per cent of a model's event).
type intervalHistogram struct {
	in, out metrics.Histogram
}

// of returns the histogram a latency of a measured (or not) request
// goes to: callers write h.of(measured).Record(v). Record is too big to
// inline by the inliner's usual budget, and profile-guided optimisation
// inlines it only at a call written in the function being compiled: a
// record method around it, itself inlined, left Record a call at every
// site (PGO keys its hot call sites by the function and line where the
// call is written).
func (h *intervalHistogram) of(measured bool) *metrics.Histogram {
	if measured {
		return &h.in
	}
	return &h.out
}

// close ends the interval: it merges the measured values into win and
// returns every value of the interval. The histogram it returns stays
// valid until reset, which must follow before anything is recorded again.
func (h *intervalHistogram) close(win *metrics.Histogram) *metrics.Histogram {
	mergeExact(win, &h.in)
	if h.out.Count() > 0 {
		mergeExact(&h.in, &h.out)
		h.out.Reset()
	}
	return &h.in
}

// reset starts the next interval.
func (h *intervalHistogram) reset() { h.in.Reset() }

// flush merges into win the measured values recorded since the last
// close: those of events at the run's last instant that fired after the
// series closed its last interval.
func (h *intervalHistogram) flush(win *metrics.Histogram) {
	mergeExact(win, &h.in)
	h.in.Reset()
	h.out.Reset()
}

// mergeExact merges o into h. Every histogram of the model has the
// default precision, so Merge cannot fail; a failure is a bug.
func mergeExact(h, o *metrics.Histogram) {
	if err := h.Merge(o); err != nil {
		panic("topology: " + err.Error())
	}
}
