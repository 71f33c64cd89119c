package promql

import (
	"math"
)

// function is a function of the subset.
type function struct {
	name string
	args []ValueType
	ret  ValueType
	call func(ev *evaluator, c *Call) []sample
}

// functions are the subset's functions, by name.
var functions map[string]*function

func init() {
	functions = map[string]*function{
		"rate": overTime("rate", func(p []fpoint, ms *MatrixSelector, t int64) (float64, bool) {
			return extrapolatedRate(p, ms, t, true, true)
		}),
		"increase": overTime("increase", func(p []fpoint, ms *MatrixSelector, t int64) (float64, bool) {
			return extrapolatedRate(p, ms, t, true, false)
		}),
		"delta": overTime("delta", func(p []fpoint, ms *MatrixSelector, t int64) (float64, bool) {
			return extrapolatedRate(p, ms, t, false, false)
		}),
		"irate":              overTime("irate", irate),
		"max_over_time":      overTime("max_over_time", maxOverTime),
		"min_over_time":      overTime("min_over_time", minOverTime),
		"avg_over_time":      overTime("avg_over_time", avgOverTime),
		"sum_over_time":      overTime("sum_over_time", sumOverTime),
		"count_over_time":    overTime("count_over_time", func(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) { return float64(len(p)), true }),
		"histogram_quantile": {name: "histogram_quantile", args: []ValueType{ScalarType, VectorType}, ret: VectorType, call: histogramQuantile},
		"vector": {name: "vector", args: []ValueType{ScalarType}, ret: VectorType, call: func(ev *evaluator, c *Call) []sample {
			return []sample{{nil, ev.eval(c.Args[0]).s}}
		}},
	}
}

// overTime is a function of a range vector: f of each series' samples in
// the window, the series' labels less __name__.
func overTime(name string, f func(p []fpoint, ms *MatrixSelector, t int64) (float64, bool)) *function {
	return &function{name: name, args: []ValueType{MatrixType}, ret: VectorType, call: func(ev *evaluator, c *Call) []sample {
		ms := c.Args[0].(*MatrixSelector)
		var out []sample
		series := ev.match(ms.VS)
		ev.charge(len(series))
		for _, s := range series {
			ev.buf = s.window(ev.buf[:0], ev.t-ms.Range.Milliseconds(), ev.t)
			ev.charge(len(ev.buf))
			if len(ev.buf) == 0 {
				continue
			}
			if v, ok := f(ev.buf, ms, ev.t); ok {
				out = append(out, sample{s.lbls.dropName(), v})
			}
		}
		return out
	}}
}

// extrapolatedRate is Prometheus 2.42's rate, increase and delta: the
// difference between the window's last and first samples (counter resets
// added back for rate and increase), extrapolated to the window's edges
// when the first and last samples are within 1.1 average sample
// intervals of them (else by half an interval), and for counters never
// below the point where the counter would have been 0.
func extrapolatedRate(p []fpoint, ms *MatrixSelector, t int64, isCounter, isRate bool) (float64, bool) {
	if len(p) < 2 {
		return 0, false
	}
	rangeStart := t - ms.Range.Milliseconds()
	rangeEnd := t
	first, last := p[0], p[len(p)-1]
	result := last.v - first.v
	if isCounter {
		prev := first.v
		for _, c := range p[1:] {
			if c.v < prev {
				result += prev
			}
			prev = c.v
		}
	}
	durationToStart := float64(first.t-rangeStart) / 1000
	durationToEnd := float64(rangeEnd-last.t) / 1000
	sampledInterval := float64(last.t-first.t) / 1000
	averageDurationBetweenSamples := sampledInterval / float64(len(p)-1)
	if isCounter && result > 0 && first.v >= 0 {
		durationToZero := sampledInterval * (first.v / result)
		if durationToZero < durationToStart {
			durationToStart = durationToZero
		}
	}
	extrapolationThreshold := averageDurationBetweenSamples * 1.1
	extrapolateToInterval := sampledInterval
	if durationToStart < extrapolationThreshold {
		extrapolateToInterval += durationToStart
	} else {
		extrapolateToInterval += averageDurationBetweenSamples / 2
	}
	if durationToEnd < extrapolationThreshold {
		extrapolateToInterval += durationToEnd
	} else {
		extrapolateToInterval += averageDurationBetweenSamples / 2
	}
	factor := extrapolateToInterval / sampledInterval
	if isRate {
		factor /= ms.Range.Seconds()
	}
	return result * factor, true
}

// irate is the per-second rate between the window's last two samples (the
// last value alone after a counter reset).
func irate(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) {
	if len(p) < 2 {
		return 0, false
	}
	last, prev := p[len(p)-1], p[len(p)-2]
	result := last.v - prev.v
	if last.v < prev.v {
		result = last.v
	}
	interval := last.t - prev.t
	if interval == 0 {
		return 0, false
	}
	return result / (float64(interval) / 1000), true
}

func maxOverTime(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) {
	m := p[0].v
	for _, x := range p {
		if x.v > m || math.IsNaN(m) {
			m = x.v
		}
	}
	return m, true
}

func minOverTime(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) {
	m := p[0].v
	for _, x := range p {
		if x.v < m || math.IsNaN(m) {
			m = x.v
		}
	}
	return m, true
}

func sumOverTime(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) {
	var s float64
	for _, x := range p {
		s += x.v
	}
	return s, true
}

// avgOverTime is Prometheus' incremental mean, infinities kept.
func avgOverTime(p []fpoint, _ *MatrixSelector, _ int64) (float64, bool) {
	var mean, count float64
	for _, x := range p {
		count++
		if math.IsInf(mean, 0) {
			if math.IsInf(x.v, 0) && (mean > 0) == (x.v > 0) {
				continue
			}
			if !math.IsInf(x.v, 0) && !math.IsNaN(x.v) {
				continue
			}
		}
		mean += x.v/count - mean/count
	}
	return mean, true
}
