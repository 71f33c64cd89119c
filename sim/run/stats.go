package run

import (
	"math"

	"github.com/ressim/ressim/sim/analysis"
)

// MetricDef is a headline metric of a comparison.
type MetricDef struct {
	// Name is the metric's snake_case name; Unit its unit.
	Name, Unit string
	// Label is a short human label for tables and plots.
	Label string
	// HigherIsBetter orients the table's markers.
	HigherIsBetter bool
	get            func(Headline) float64
}

// Metrics are the headline metrics, in report order.
var Metrics = []MetricDef{
	{"goodput", "req/s", "goodput", true, func(h Headline) float64 { return h.Goodput }},
	{"p99_latency", "s", "p99 latency", false, func(h Headline) float64 { return h.P99 }},
	{"success_ratio", "ratio", "success ratio", true, func(h Headline) float64 { return h.SuccessRatio }},
	{"amplification", "attempts/request", "amplification", false, func(h Headline) float64 { return h.Amplification }},
	{"wasted_work", "worker-s", "wasted work", false, func(h Headline) float64 { return h.WastedWork }},
	{"recovery_time", "s", "recovery time", false, func(h Headline) float64 {
		if !h.HasRecovery {
			return math.NaN()
		}
		return h.Recovery
	}},
}

// ArmStat is one variant's statistics for one metric.
type ArmStat struct {
	Arm string
	// Summary is over the replications (mean and 95 % Student t interval).
	Summary analysis.Summary
	// Diff is the paired difference variant - base over the replications
	// (common random numbers); nil for the base itself.
	Diff *analysis.Summary
}

// MetricStats are the statistics of one metric for every variant.
type MetricStats struct {
	Metric MetricDef
	Arms   []ArmStat
}

// LockedIn is one variant's probability of ending locked in after the
// first fault, with a 95 % Wilson interval.
type LockedIn struct {
	Arm          string
	Count, Total int
	P            float64
	CI95         analysis.Interval
}

// Stats computes every metric's statistics and the locked-in
// probabilities.
func (c *Comparison) Stats() ([]MetricStats, []LockedIn) {
	var out []MetricStats
	col := func(arm int, m MetricDef) []float64 {
		xs := make([]float64, len(c.Headlines[arm]))
		for r, h := range c.Headlines[arm] {
			xs[r] = m.get(h)
		}
		return xs
	}
	for _, m := range Metrics {
		ms := MetricStats{Metric: m}
		base := col(0, m)
		for a := range c.Arms {
			xs := col(a, m)
			st := ArmStat{Arm: c.Arms[a].Name, Summary: analysis.Summarize(finite(xs))}
			if a > 0 && allFinite(xs) && allFinite(base) {
				if d, err := analysis.Paired(base, xs); err == nil {
					st.Diff = &d
				}
			}
			ms.Arms = append(ms.Arms, st)
		}
		out = append(out, ms)
	}
	var locked []LockedIn
	if len(c.Headlines) > 0 && len(c.Headlines[0]) > 0 && c.Headlines[0][0].HasFault {
		for a := range c.Arms {
			k := 0
			for _, h := range c.Headlines[a] {
				if h.LockedIn {
					k++
				}
			}
			n := len(c.Headlines[a])
			li := LockedIn{Arm: c.Arms[a].Name, Count: k, Total: n, CI95: analysis.Wilson(k, n)}
			if n > 0 {
				li.P = float64(k) / float64(n)
			}
			locked = append(locked, li)
		}
	}
	return out, locked
}

func finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

func allFinite(xs []float64) bool { return len(finite(xs)) == len(xs) }
