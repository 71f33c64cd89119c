package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceStep returns a step from {1, 2, 2.5, 5} x 10^k close to span/target
// (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
func niceStep(span float64, target int) float64 {
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(target)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	f := raw / mag
	switch {
	case f < 1.5:
		f = 1
	case f < 2.25:
		f = 2
	case f < 3.5:
		f = 2.5
	case f < 7.5:
		f = 5
	default:
		f = 10
	}
	return f * mag
}

// linearTicks labels multiples of a nice step inside [lo, hi]. With
// labels false every tick is returned unlabelled (minor), which hides the
// tick labels of the upper panels while keeping their grid in step.
type linearTicks struct {
	target int
	labels bool
}

func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep(hi-lo, t.target)
	first := math.Ceil(lo/step - 1e-9)
	var ticks []plot.Tick
	for i := first; ; i++ {
		v := i * step
		if v > hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0 // avoid "-0"
		}
		tk := plot.Tick{Value: v}
		if t.labels {
			tk.Label = formatTick(v, step, math.Max(math.Abs(lo), math.Abs(hi)))
		}
		ticks = append(ticks, tk)
		if len(ticks) > 100 {
			break
		}
	}
	return ticks
}

// formatTick prints v compactly with just enough decimals for step, in a
// unit chosen by mag, the largest magnitude on the axis, so that all the
// labels of an axis share it: 1500 -> "1500", 12000 -> "12k",
// 2.5e6 -> "2.5M", 0.05 -> "0.05".
func formatTick(v, step, mag float64) string {
	a := math.Max(mag, step)
	switch {
	case v == 0:
		return "0"
	case a >= 1e10:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case a >= 1e6:
		return trimmed(v/1e6, step/1e6) + "M"
	case a >= 1e4:
		return trimmed(v/1e3, step/1e3) + "k"
	case a < 1e-4:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return trimmed(v, step)
}

func trimmed(v, step float64) string {
	dec := 0
	for s := step; dec < 6 && math.Abs(s-math.Round(s)) > 1e-9*math.Max(1, math.Abs(s)); s *= 10 {
		dec++
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// logTicks labels the powers of ten in [lo, hi] (lo > 0) and adds unlabelled
// ticks at 2..9 times each power. With labels false all are unlabelled.
type logTicks struct{ labels bool }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)) && len(ticks) < 400; e++ {
		p := math.Pow(10, e)
		for m := 1.0; m < 10; m++ {
			v := m * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 && t.labels {
				tk.Label = formatTick(v, p, v) // decades: each in its own unit
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// majorTicks returns the values of the ticks that carry a label when
// labels are on: the grid lines.
func majorTicks(tk plot.Ticker, lo, hi float64) []float64 {
	var out []float64
	switch t := tk.(type) {
	case linearTicks:
		t.labels = true
		tk = t
	case logTicks:
		t.labels = true
		tk = t
	}
	for _, k := range tk.Ticks(lo, hi) {
		if k.Label != "" {
			out = append(out, k.Value)
		}
	}
	return out
}

// niceRange widens [lo, hi] outwards to multiples of the tick step and
// makes a degenerate range non-empty.
func niceRange(lo, hi float64, target int) (float64, float64) {
	if lo == hi {
		d := math.Max(math.Abs(lo)*0.1, 1)
		lo, hi = lo-d, hi+d
		if lo < 0 && hi-d >= 0 {
			lo = 0
		}
	}
	step := niceStep(hi-lo, target)
	return math.Floor(lo/step+1e-9) * step, math.Ceil(hi/step-1e-9) * step
}

// niceLogRange widens [lo, hi] (lo > 0) to whole decades.
func niceLogRange(lo, hi float64) (float64, float64) {
	l := math.Pow(10, math.Floor(math.Log10(lo)+1e-9))
	h := math.Pow(10, math.Ceil(math.Log10(hi)-1e-9))
	if h <= l {
		h = l * 10
	}
	return l, h
}
