package preset

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// MaxSeriesPerRole bounds the series one role (one quantity of a preset,
// such as a service's request counter) may match in a set; a set matching
// more is refused rather than summed for minutes.
const MaxSeriesPerRole = 100000

// index is a Set with its series found by name. The maps are lookups
// only: every list keeps the Set's order.
type index struct {
	set    telemetry.Set
	byName map[string][]int
	units  map[string]string // family name → declared unit
}

func newIndex(set telemetry.Set) *index {
	x := &index{set: set, byName: make(map[string][]int), units: make(map[string]string)}
	for i := range set.Series {
		n := set.Series[i].Name
		x.byName[n] = append(x.byName[n], i)
	}
	for _, f := range set.Families {
		x.units[f.Name] = f.Unit
	}
	return x
}

// has reports whether any series matches sel.
func (x *index) has(sel selector) bool {
	for _, i := range x.byName[sel.name] {
		if sel.labelsMatch(&x.set.Series[i]) {
			return true
		}
	}
	return false
}

// selectSeries returns the series matching sel, in the set's order.
func (x *index) selectSeries(sel selector) ([]*telemetry.Series, error) {
	var out []*telemetry.Series
	for _, i := range x.byName[sel.name] {
		s := &x.set.Series[i]
		if !sel.labelsMatch(s) {
			continue
		}
		if len(out) == MaxSeriesPerRole {
			return nil, fmt.Errorf("more than %d series match %s", MaxSeriesPerRole, sel)
		}
		out = append(out, s)
	}
	return out, nil
}

// key names the entity a series belongs to: a service or client (a), or
// an edge's caller, callee and operation (a, b, c).
type key struct{ a, b, c string }

func (k key) less(o key) bool {
	if k.a != o.a {
		return k.a < o.a
	}
	if k.b != o.b {
		return k.b < o.b
	}
	return k.c < o.c
}

// keyFunc gives a series' entity, or false to skip the series.
type keyFunc func(s *telemetry.Series) (key, bool)

// group is the series of one entity.
type group struct {
	key    key
	series []*telemetry.Series
}

// groupSeries splits series by entity, groups sorted by key, each
// group's series in the given order. It returns how many were skipped.
func groupSeries(series []*telemetry.Series, kf keyFunc) ([]group, int) {
	at := make(map[key]int) // lookup only
	var out []group
	skipped := 0
	for _, s := range series {
		k, ok := kf(s)
		if !ok {
			skipped++
			continue
		}
		i, seen := at[k]
		if !seen {
			i = len(out)
			at[k] = i
			out = append(out, group{key: k})
		}
		out[i].series = append(out[i].series, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key.less(out[j].key) })
	return out, skipped
}

// refs lists the series as Refs, sorted by ID.
func refs(series ...[]*telemetry.Series) []observe.Ref {
	var out []observe.Ref
	for _, ss := range series {
		for _, s := range ss {
			out = append(out, observe.Ref{ID: s.ID(), Origin: s.Origin})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// unreset returns a counter's points with resets undone: after a drop,
// the value before it is added to every later point.
func unreset(ps []telemetry.Point) []telemetry.Point {
	out := make([]telemetry.Point, len(ps))
	offset := 0.0
	for i, p := range ps {
		if i > 0 && p.V < ps[i-1].V {
			offset += ps[i-1].V
		}
		out[i] = telemetry.Point{T: p.T, V: p.V + offset}
	}
	return out
}

// sharedTimes returns the times present in every list, ascending.
func sharedTimes(lists [][]telemetry.Point) []int64 {
	if len(lists) == 0 {
		return nil
	}
	var ts []int64
	for _, p := range lists[0] {
		ts = append(ts, p.T)
	}
	for _, l := range lists[1:] {
		var keep []int64
		j := 0
		for _, t := range ts {
			for j < len(l) && l[j].T < t {
				j++
			}
			if j < len(l) && l[j].T == t {
				keep = append(keep, t)
			}
		}
		ts = keep
	}
	return ts
}

// sumAt sums the lists at the given times, each of which every list has.
func sumAt(lists [][]telemetry.Point, ts []int64) []telemetry.Point {
	out := make([]telemetry.Point, len(ts))
	for i, t := range ts {
		out[i].T = t
	}
	for _, l := range lists {
		j := 0
		for i, t := range ts {
			for j < len(l)-1 && l[j].T < t { // bounded even on unsorted input
				j++
			}
			out[i].V += l[j].V
		}
	}
	return out
}

// sumSeries sums series at the times all of them share, undoing each
// one's counter resets first when counter is set.
func sumSeries(series []*telemetry.Series, counter bool) []telemetry.Point {
	lists := make([][]telemetry.Point, len(series))
	for i, s := range series {
		lists[i] = s.Points
		if counter {
			lists[i] = unreset(s.Points)
		}
	}
	return sumAt(lists, sharedTimes(lists))
}

// counterOf sums counter series; nil for none.
func counterOf(series []*telemetry.Series) *observe.Counter {
	if len(series) == 0 {
		return nil
	}
	return &observe.Counter{Points: sumSeries(series, true), Refs: refs(series)}
}

// gaugeOf sums gauge series; nil for none.
func gaugeOf(series []*telemetry.Series) *observe.Gauge {
	if len(series) == 0 {
		return nil
	}
	return &observe.Gauge{Points: sumSeries(series, false), Refs: refs(series)}
}

// withoutLe is a keyFunc's view of a bucket series: the same series
// without its le label, so bucket, _sum and _count series group alike.
func withoutLe(s *telemetry.Series) *telemetry.Series {
	c := *s
	c.Labels = make([]telemetry.Label, 0, len(s.Labels))
	for _, l := range s.Labels {
		if l.Name != "le" {
			c.Labels = append(c.Labels, l)
		}
	}
	return &c
}

// parseLe reads a bucket bound.
func parseLe(v string) (float64, error) {
	switch v {
	case "+Inf", "Inf", "+inf", "inf":
		return math.Inf(1), nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		return 0, fmt.Errorf("bucket bound le=%q is not a number", v)
	}
	return f, nil
}

// histogramParts are one entity's series of a histogram family.
type histogramParts struct {
	buckets, sums, counts []*telemetry.Series
}

// histogramOf builds a histogram from its parts, dividing bounds and sums
// by div (1000 for milliseconds, which is exact where multiplying by
// 1e-3 is not). Bucket series with the same
// bound are summed; each series' resets are undone. A missing +Inf
// bucket is taken from _count. It returns nil when there are no buckets.
func histogramOf(p histogramParts, div float64) (*observe.Histogram, error) {
	if len(p.buckets) == 0 {
		return nil, nil
	}
	byBound := make(map[float64][]*telemetry.Series) // lookup only
	var bounds []float64
	for _, s := range p.buckets {
		le, err := parseLe(s.Label("le"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.ID(), err)
		}
		if _, ok := byBound[le]; !ok {
			bounds = append(bounds, le)
		}
		byBound[le] = append(byBound[le], s)
	}
	sort.Float64s(bounds)
	var lists [][]telemetry.Point
	for _, b := range bounds {
		lists = append(lists, sumSeries(byBound[b], true))
	}
	count := sumSeries(p.counts, true)
	if !math.IsInf(bounds[len(bounds)-1], 1) {
		if len(p.counts) == 0 {
			return nil, fmt.Errorf("%s: no +Inf bucket and no _count", p.buckets[0].ID())
		}
		bounds = append(bounds, math.Inf(1))
		lists = append(lists, count)
	}
	all := lists
	if len(p.counts) > 0 {
		all = append(all[:len(all):len(all)], count)
	}
	sum := sumSeries(p.sums, true)
	if len(p.sums) > 0 {
		all = append(all[:len(all):len(all)], sum)
	}
	ts := sharedTimes(all)
	h := &observe.Histogram{Refs: refs(p.buckets, p.sums, p.counts)}
	for _, b := range bounds {
		h.Bounds = append(h.Bounds, b/div)
	}
	at := func(l []telemetry.Point) []telemetry.Point { return sumAt([][]telemetry.Point{l}, ts) }
	cols := make([][]telemetry.Point, len(lists))
	for i, l := range lists {
		cols[i] = at(l)
	}
	var counts, sums []telemetry.Point
	if len(p.counts) > 0 {
		counts = at(count)
	}
	if len(p.sums) > 0 {
		sums = at(sum)
	}
	for i, t := range ts {
		hp := observe.HistogramPoint{T: t, Counts: make([]float64, len(bounds)), Sum: math.NaN()}
		for j := range bounds {
			hp.Counts[j] = cols[j][i].V
		}
		hp.Count = hp.Counts[len(bounds)-1]
		if counts != nil {
			hp.Count = counts[i].V
		}
		if sums != nil {
			hp.Sum = sums[i].V / div
		}
		h.Points = append(h.Points, hp)
	}
	return h, nil
}

// isMilliseconds reports whether a histogram family measures
// milliseconds: by its name (_milliseconds, or ending in _ms) or its
// declared unit.
func (x *index) isMilliseconds(base string) bool {
	switch strings.ToLower(x.units[base]) {
	case "milliseconds", "ms":
		return true
	case "seconds", "s":
		return false
	}
	return strings.Contains(base, "_milliseconds") || strings.HasSuffix(base, "_ms")
}
