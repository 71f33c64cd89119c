package promql

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// LookbackDelta is how far back an instant vector selector looks for a
// series' latest sample (Prometheus' default, 5m).
const LookbackDelta = 5 * time.Minute

// staleNaN is Prometheus' staleness marker: a series that a rule stopped
// producing gets one, and selectors ignore it.
var staleNaN = math.Float64frombits(0x7ff0000000000002)

func isStale(v float64) bool { return math.Float64bits(v) == 0x7ff0000000000002 }

// Point is one sample: time since the start of the run, and value.
type Point struct {
	T time.Duration
	V float64
}

// Series is one input time series: its labels, with the metric name as
// __name__, and its points in increasing time order.
type Series struct {
	Labels Labels
	Points []Point
}

// memSeries is a stored series, times in milliseconds as in Prometheus.
type memSeries struct {
	lbls Labels
	t    []int64
	v    []float64
}

// storage holds the input series and the ones the rules write.
type storage struct {
	series []*memSeries
	byKey  map[string]*memSeries // lookup only; series keeps the order
	points int
	lim    Limits
}

// selCache is a selector's matched series among the first n stored.
type selCache struct {
	n       int
	matched []*memSeries
}

func newStorage(in []Series, lim Limits) (*storage, error) {
	if len(in) > lim.MaxSeries {
		return nil, fmt.Errorf("promql: %d series, more than the %d allowed", len(in), lim.MaxSeries)
	}
	st := &storage{byKey: make(map[string]*memSeries, len(in)), lim: lim}
	for _, s := range in {
		ls := append(Labels(nil), s.Labels...).normalize()
		if !validMetricName(ls.Get(MetricName)) {
			return nil, fmt.Errorf("promql: series %v has no valid metric name", ls)
		}
		if _, dup := st.byKey[ls.key()]; dup {
			return nil, fmt.Errorf("promql: series %v given twice", ls)
		}
		ms := st.add(ls)
		for i, p := range s.Points {
			t := p.T.Milliseconds()
			if i > 0 && t <= ms.t[len(ms.t)-1] {
				return nil, fmt.Errorf("promql: series %v: point at %v is not after the one before", ls, p.T)
			}
			if err := st.append(ms, t, p.V); err != nil {
				return nil, err
			}
		}
	}
	return st, nil
}

func (st *storage) add(ls Labels) *memSeries {
	ms := &memSeries{lbls: ls}
	st.series = append(st.series, ms)
	st.byKey[ls.key()] = ms
	return ms
}

func (st *storage) append(ms *memSeries, t int64, v float64) error {
	if st.points++; st.points > st.lim.MaxPoints {
		return fmt.Errorf("promql: more than %d points (input and recorded)", st.lim.MaxPoints)
	}
	ms.t = append(ms.t, t)
	ms.v = append(ms.v, v)
	return nil
}

// write appends a sample to the series ls at t, creating it if needed.
func (st *storage) write(ls Labels, t int64, v float64) error {
	ms, ok := st.byKey[ls.key()]
	if !ok {
		if len(st.series) >= st.lim.MaxSeries {
			return fmt.Errorf("promql: more than %d series (input and recorded)", st.lim.MaxSeries)
		}
		ms = st.add(ls)
	}
	if n := len(ms.t); n > 0 && ms.t[n-1] >= t {
		return nil // an input series already has a sample there; Prometheus rejects it too
	}
	return st.append(ms, t, v)
}

// match returns the series that vs matches, c caching the matches.
func (st *storage) match(vs *VectorSelector, c *selCache) []*memSeries {
	for ; c.n < len(st.series); c.n++ {
		if ms := st.series[c.n]; matchesLabels(vs.Matchers, ms.lbls) {
			c.matched = append(c.matched, ms)
		}
	}
	return c.matched
}

// at returns the series' latest sample in [t-LookbackDelta, t], unless it
// is a staleness marker.
func (ms *memSeries) at(t int64) (float64, bool) {
	i := sort.Search(len(ms.t), func(i int) bool { return ms.t[i] > t }) - 1
	if i < 0 || ms.t[i] < t-LookbackDelta.Milliseconds() || isStale(ms.v[i]) {
		return 0, false
	}
	return ms.v[i], true
}

// fpoint is a sample in milliseconds.
type fpoint struct {
	t int64
	v float64
}

// window appends to buf the series' samples in [mint, maxt], both ends
// included as in Prometheus 2.x (3.0 excludes mint), staleness markers
// left out.
func (ms *memSeries) window(buf []fpoint, mint, maxt int64) []fpoint {
	lo := sort.Search(len(ms.t), func(i int) bool { return ms.t[i] >= mint })
	for i := lo; i < len(ms.t) && ms.t[i] <= maxt; i++ {
		if !isStale(ms.v[i]) {
			buf = append(buf, fpoint{ms.t[i], ms.v[i]})
		}
	}
	return buf
}
