package fit

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// at returns the value of pts at time t, and whether a sample is there.
func at(pts []telemetry.Point, t int64) (float64, bool) {
	i := sort.Search(len(pts), func(i int) bool { return pts[i].T >= t })
	if i < len(pts) && pts[i].T == t {
		return pts[i].V, true
	}
	return 0, false
}

// increase returns a counter's increase over w: its value at w.End less
// its value at w.Start (a window of length 0 gives the total since the
// process started). ok is false when the counter lacks a sample at
// either end.
func increase(c *observe.Counter, w Window) (float64, bool) {
	if c == nil {
		return 0, false
	}
	end, ok := at(c.Points, w.End)
	if !ok {
		return 0, false
	}
	if w.End == w.Start {
		return end, true
	}
	start, ok := at(c.Points, w.Start)
	if !ok {
		return 0, false
	}
	return math.Max(0, end-start), true
}

// rate returns a counter's mean rate over w in events per second.
func rate(c *observe.Counter, w Window) (float64, bool) {
	n, ok := increase(c, w)
	if !ok || w.End == w.Start {
		return 0, false
	}
	return n / w.Seconds(), true
}

// mean returns the mean of a gauge's samples in (w.Start, w.End] (the
// samples that describe the window's intervals), or the sample at End for
// a window of length 0.
func mean(g *observe.Gauge, w Window) (float64, bool) {
	if g == nil {
		return 0, false
	}
	sum, n := 0.0, 0
	for _, p := range g.Points {
		in := p.T > w.Start && p.T <= w.End
		if w.Start == w.End {
			in = p.T == w.End
		}
		if in && !math.IsNaN(p.V) {
			sum += p.V
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// binsIn is a histogram's observations over w: the bucket counts (not
// cumulative) with their upper bounds in seconds, their sum in seconds
// (NaN if unknown) and count.
type binsIn struct {
	Bounds, Counts []float64
	Sum, Count     float64
}

// Mean returns the mean observation: Sum/Count, or the bucket midpoints'
// mean when the sum is unknown.
func (b binsIn) Mean() float64 {
	if b.Count > 0 && !math.IsNaN(b.Sum) {
		return b.Sum / b.Count
	}
	lo, s, n := 0.0, 0.0, 0.0
	for i, c := range b.Counts {
		hi := b.Bounds[i]
		mid := (lo + hi) / 2
		if math.IsInf(hi, 1) {
			mid = 2 * lo // a stated guess for the open bucket
		}
		s += c * mid
		n += c
		lo = hi
	}
	if n == 0 {
		return 0
	}
	return s / n
}

// histogramIn returns h's observations over w.
func histogramIn(h *observe.Histogram, w Window) (binsIn, error) {
	if h == nil {
		return binsIn{}, fmt.Errorf("no histogram")
	}
	find := func(t int64) (observe.HistogramPoint, bool) {
		i := sort.Search(len(h.Points), func(i int) bool { return h.Points[i].T >= t })
		if i < len(h.Points) && h.Points[i].T == t {
			return h.Points[i], true
		}
		return observe.HistogramPoint{}, false
	}
	end, ok := find(w.End)
	if !ok {
		return binsIn{}, fmt.Errorf("no sample at the window's end")
	}
	start := observe.HistogramPoint{Counts: make([]float64, len(end.Counts))}
	if w.End > w.Start {
		if start, ok = find(w.Start); !ok {
			return binsIn{}, fmt.Errorf("no sample at the window's start")
		}
	}
	b := binsIn{Bounds: h.Bounds, Counts: make([]float64, len(h.Bounds)), Sum: end.Sum - start.Sum, Count: end.Count - start.Count}
	prev := 0.0
	for i := range h.Bounds {
		cum := end.Counts[i] - start.Counts[i]
		if cum < prev { // cumulative counts must not fall along the bounds
			cum = prev
		}
		b.Counts[i] = cum - prev
		prev = cum
	}
	if b.Count <= 0 {
		b.Count = prev
	}
	return b, nil
}

// refs formats the series a quantity came from, for a comment: the
// first series' ID and origin, and how many others.
func refs(rs []observe.Ref) string {
	if len(rs) == 0 {
		return "no series"
	}
	// A histogram's buckets, sum and count are one series to a reader:
	// name{labels} without the suffix and the le label.
	var ids []string
	seen := map[string]bool{}
	for _, r := range rs {
		id := histogramID(r.ID)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	s := ids[0]
	if o := rs[0].Origin.String(); o != "" {
		s += " (" + o + ")"
	}
	if len(ids) > 1 {
		s += fmt.Sprintf(" and %d more", len(ids)-1)
	}
	return s
}

// histogramID turns the ID of a histogram's bucket, sum or count series
// into the histogram's: name{labels} less the suffix and the le label.
// Other IDs are returned as they are.
func histogramID(id string) string {
	name, labels, _ := strings.Cut(id, "{")
	base, ok := strings.CutSuffix(name, "_bucket")
	if !ok {
		if base, ok = strings.CutSuffix(name, "_sum"); !ok {
			if base, ok = strings.CutSuffix(name, "_count"); !ok {
				return id
			}
		}
	}
	if labels == "" {
		return base
	}
	// Labels are name="Go-quoted value" pairs; drop le's.
	var kept []string
	rest := strings.TrimSuffix(labels, "}")
	for rest != "" {
		eq := strings.Index(rest, "=")
		if eq < 0 {
			return id
		}
		v, err := strconv.QuotedPrefix(rest[eq+1:])
		if err != nil {
			return id
		}
		if rest[:eq] != "le" {
			kept = append(kept, rest[:eq+1]+v)
		}
		rest = strings.TrimPrefix(rest[eq+1+len(v):], ",")
	}
	if len(kept) == 0 {
		return base
	}
	return base + "{" + strings.Join(kept, ",") + "}"
}
