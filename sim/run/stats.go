package run

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ressim/ressim/sim/headline"
)

// MetricDef is a per-run headline metric of a comparison: its row of the
// contract (sim/headline, which names it) and its getter on Headline.
type MetricDef struct {
	// Key is the metric in the contract.
	Key headline.Key
	// Name is the metric's snake_case name; Unit its unit.
	Name, Unit string
	// Label is a short human label for tables and plots.
	Label string
	// HigherIsBetter orients the table's markers.
	HigherIsBetter bool
	get            func(Headline) float64
}

// Metrics are the headline metrics each run has a value of (every key of
// the contract but the locked-in probability, which is over
// replications), in report order: the contract's.
var Metrics = perRunMetrics()

func perRunMetrics() []MetricDef {
	var out []MetricDef
	for _, k := range headline.Select(func(d headline.Def) bool { return d.PerRun }) {
		d := k.Def()
		out = append(out, MetricDef{Key: k, Name: d.Name, Unit: d.Unit, Label: d.Label, HigherIsBetter: d.HigherIsBetter, get: getter(k)})
	}
	return out
}

// headlineField is the field of h that holds per-run metric k, nil for a
// key with none. It is the one map from the contract to Headline's
// fields: the getters and the partial file's headline both read it.
func headlineField(h *Headline, k headline.Key) *float64 {
	switch k {
	case headline.Goodput:
		return &h.Goodput
	case headline.GoodputShare:
		return &h.GoodputShare
	case headline.P99Latency:
		return &h.P99
	case headline.P99OutcomeLatency:
		return &h.P99Outcome
	case headline.SuccessRatio:
		return &h.SuccessRatio
	case headline.InFlightAtEnd:
		return &h.InFlightAtEnd
	case headline.Amplification:
		return &h.Amplification
	case headline.WastedWork:
		return &h.WastedWork
	case headline.RecoveryTime:
		return &h.Recovery
	}
	return nil
}

// getter reads per-run metric k of a headline: its field, except that the
// recovery time is NaN (undefined) for a run that did not recover. A key
// the contract says is per run but Headline has no field for is a bug:
// the package fails to initialise, and with it every test.
func getter(k headline.Key) func(Headline) float64 {
	if headlineField(&Headline{}, k) == nil {
		panic(fmt.Sprintf("run: headline metric %s is per run but Headline has no field for it (headlineField)", k))
	}
	if k == headline.RecoveryTime {
		return func(h Headline) float64 {
			if !h.HasRecovery {
				return math.NaN()
			}
			return h.Recovery
		}
	}
	return func(h Headline) float64 { return *headlineField(&h, k) }
}

func Finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// Values is the metric over a set of runs, in their order (NaN where it is
// undefined for a run).
func (m MetricDef) Values(hs []Headline) []float64 {
	xs := make([]float64, len(hs))
	for i, h := range hs {
		xs[i] = m.get(h)
	}
	return xs
}

// lockedInCount counts the runs still locked in after the first fault.
func LockedInCount(hs []Headline) int {
	k := 0
	for _, h := range hs {
		if h.LockedIn {
			k++
		}
	}
	return k
}

// metricOf returns per-run metric k, or nil (for the locked-in
// probability, which is not a per-run number).
func MetricOf(k headline.Key) *MetricDef {
	for i := range Metrics {
		if Metrics[i].Key == k {
			return &Metrics[i]
		}
	}
	return nil
}

// CSVNum formats a number for CSV output: shortest round-trip form, empty
// for NaN or infinities.
func CSVNum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// fmtNum formats a number with 4 significant digits ("-" for NaN).
func FmtNum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}
