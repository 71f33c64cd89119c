package compare

import (
	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/run"
)

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
	Metric run.MetricDef
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
	for _, m := range run.Metrics {
		ms := MetricStats{Metric: m}
		base := m.Values(c.Headlines[0])
		for a := range c.Arms {
			xs := m.Values(c.Headlines[a])
			st := ArmStat{Arm: c.Arms[a].Name, Summary: analysis.Summarize(run.Finite(xs))}
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
			k, n := run.LockedInCount(c.Headlines[a]), len(c.Headlines[a])
			li := LockedIn{Arm: c.Arms[a].Name, Count: k, Total: n, CI95: analysis.Wilson(k, n)}
			if n > 0 {
				li.P = float64(k) / float64(n)
			}
			locked = append(locked, li)
		}
	}
	return out, locked
}

func allFinite(xs []float64) bool { return len(run.Finite(xs)) == len(xs) }

// ByVariant indexes a comparison's headlines by variant name.
func (c *Comparison) ByVariant() map[string][]run.Headline {
	m := map[string][]run.Headline{}
	for i, a := range c.Arms {
		m[a.Name] = c.Headlines[i]
	}
	return m
}
