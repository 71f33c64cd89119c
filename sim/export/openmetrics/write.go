package openmetrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// DefaultStart is the instant simulated time 0 is mapped onto when
// Options.Start is zero: 2026-01-01T00:00:00Z.
var DefaultStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Options control the export.
type Options struct {
	// Start is the instant simulated time 0 is mapped onto; the zero
	// value means DefaultStart.
	Start time.Time
}

func (o Options) start() int64 {
	if o.Start.IsZero() {
		return DefaultStart.UnixNano()
	}
	return o.Start.UnixNano()
}

// column is one exported column: its mapping and the labels its entity
// gives it.
type column struct {
	col    *metrics.Column
	m      Mapping
	labels [][2]string
}

// Series is one exported time series: a family's sample name (with
// _total for a counter), its labels in the family's order, and its
// points in time order.
type Series struct {
	Family Family
	Name   string
	Labels [][2]string
	Points []Point
}

// Point is one sample: simulated time since the start of the run, and
// value.
type Point struct {
	T time.Duration
	V float64
}

// Collect returns every exported series of res, family by family in the
// order of Families, columns in registration order. A counter starts with
// 0 at the first interval's start, then holds its running total after
// every interval; a gauge or summary has a point at every interval's end
// where the column has a value. A histogram family's series come in
// groups (histogramGroup) per entity: the buckets, +Inf, _count, _sum.
func Collect(res *topology.Result) ([]Series, error) {
	all, err := exported(res)
	if err != nil {
		return nil, err
	}
	hists := make(map[string]HistogramMapping) // lookup only
	for _, hm := range HistogramMappings() {
		hists[hm.Family] = hm
	}
	var out []Series
	for _, f := range Families() {
		if f.Type == Histogram {
			out = append(out, histogramSeries(f, hists[f.Name], res)...)
			continue
		}
		for _, c := range all {
			if c.m.Family == f.Name {
				out = append(out, collect(f, c, res.Series)...)
			}
		}
	}
	return out, nil
}

// Write writes res's time series to w as OpenMetrics text, ending with
// "# EOF". The same result and options always give the same bytes.
func Write(w io.Writer, res *topology.Result, opt Options) error {
	all, err := Collect(res)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	t0 := opt.start()
	for i := 0; i < len(all); i++ {
		s := all[i]
		if i == 0 || all[i-1].Family.Name != s.Family.Name {
			writeHeader(bw, s.Family)
		}
		if s.Family.Type == Histogram {
			n := histogramGroup()
			writeHistogram(bw, all[i:i+n], t0)
			i += n - 1
			continue
		}
		lb := labelText(s.Labels)
		for _, p := range s.Points {
			sample(bw, s.Name, lb, p.V, t0+int64(p.T))
		}
	}
	bw.WriteString("# EOF\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("openmetrics: %w", err)
	}
	return nil
}

func writeHeader(w *bufio.Writer, f Family) {
	fmt.Fprintf(w, "# TYPE %s %s\n", f.Name, f.Type)
	if f.Unit != "" {
		fmt.Fprintf(w, "# UNIT %s %s\n", f.Name, f.Unit)
	}
	fmt.Fprintf(w, "# HELP %s %s\n", f.Name, escape(f.Help))
}

// collect returns one column's series: one per state for a one-hot
// state column, else one.
func collect(f Family, c column, ts *metrics.TimeSeries) []Series {
	name := f.Sample()
	end := func(i int) time.Duration { return time.Duration(ts.End(i)) }
	if len(c.m.State) > 0 {
		var out []Series
		for k, st := range c.m.State {
			s := Series{Family: f, Name: name, Labels: append(append([][2]string(nil), c.labels...), [2]string{"state", st})}
			for i := range ts.Len() {
				if v := c.col.Value(i); !math.IsNaN(v) {
					s.Points = append(s.Points, Point{end(i), oneHot(v, k)})
				}
			}
			out = append(out, s)
		}
		return out
	}
	s := Series{Family: f, Name: name, Labels: c.labels}
	if f.Type == Counter {
		total := 0.0
		s.Points = append(s.Points, Point{time.Duration(ts.Start(0)), 0})
		for i := range ts.Len() {
			total += increment(c, ts, i)
			s.Points = append(s.Points, Point{end(i), total})
		}
		return []Series{s}
	}
	for i := range ts.Len() {
		if v := c.col.Value(i); !math.IsNaN(v) {
			s.Points = append(s.Points, Point{end(i), v * c.m.Scale})
		}
	}
	return []Series{s}
}

func oneHot(v float64, k int) float64 {
	if int(math.Round(v)) == k {
		return 1
	}
	return 0
}

// increment is what a counter column adds in interval i: its rate times
// the interval's length, a whole number for counts.
func increment(c column, ts *metrics.TimeSeries, i int) float64 {
	v := c.col.Value(i)
	if math.IsNaN(v) {
		return 0
	}
	d := v * c.m.Scale * float64(ts.End(i)-ts.Start(i)) / 1e9
	if c.m.Integer {
		return math.Round(d)
	}
	return d
}

func sample(w *bufio.Writer, name, labels string, v float64, ns int64) {
	w.WriteString(name)
	w.WriteString(labels)
	w.WriteByte(' ')
	w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	w.WriteByte(' ')
	w.WriteString(timestamp(ns))
	w.WriteByte('\n')
}

// timestamp formats nanoseconds since the epoch as OpenMetrics seconds,
// exactly (trailing zeros of the fraction trimmed).
func timestamp(ns int64) string {
	sec, frac := ns/1e9, ns%1e9
	if frac < 0 {
		sec, frac = sec-1, frac+1e9
	}
	if frac == 0 {
		return strconv.FormatInt(sec, 10)
	}
	f := strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	return strconv.FormatInt(sec, 10) + "." + f
}

func labelText(ls [][2]string) string {
	if len(ls) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l[0])
		b.WriteString(`="`)
		b.WriteString(escape(l[1]))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// escape escapes a label value or help text: backslash, double quote and
// newline.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
