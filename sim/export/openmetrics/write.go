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

// Format is a text exposition format Write can write.
type Format int

// The formats.
const (
	// OpenMetricsText is OpenMetrics 1.0 text (metrics.om): TYPE, UNIT and
	// HELP name the family, counters' samples carry _total, timestamps are
	// seconds with a fraction, the text ends with "# EOF".
	OpenMetricsText Format = iota
	// PrometheusText is the Prometheus text format 0.0.4 (metrics.prom),
	// which promtool check metrics lints: HELP and TYPE name the sample
	// (a counter's with _total), no UNIT and no EOF, timestamps are whole
	// milliseconds.
	PrometheusText
)

// Options control the export.
type Options struct {
	// Start is the instant simulated time 0 is mapped onto; the zero
	// value means DefaultStart.
	Start time.Time
	// Format is the text format; the zero value is OpenMetricsText.
	Format Format
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

// Write writes res's time series to w as text in opt.Format:
// OpenMetrics ending with "# EOF" by default. The same result and options
// always give the same bytes.
//
// Samples are grouped as OpenMetrics groups MetricPoints: within a
// family, the series of one metric (one label set, not counting a
// summary's quantile or a histogram's le) come together, and within the
// metric point by point, in time order, each timestamp's samples
// together: a summary's quantiles, a histogram's buckets, _count and
// _sum. Timestamps never go backwards within a metric.
func Write(w io.Writer, res *topology.Result, opt Options) error {
	all, err := Collect(res)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	t0 := opt.start()
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].Family.Name == all[i].Family.Name {
			j++
		}
		writeHeader(bw, all[i].Family, opt.Format)
		for _, g := range metricGroups(all[i:j]) {
			writeGroup(bw, g, t0, opt.Format)
		}
		i = j
	}
	if opt.Format == OpenMetricsText {
		bw.WriteString("# EOF\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("openmetrics: %w", err)
	}
	return nil
}

func writeHeader(w *bufio.Writer, f Family, format Format) {
	if format == PrometheusText {
		fmt.Fprintf(w, "# HELP %s %s\n", f.Sample(), escapeHelp(f.Help))
		fmt.Fprintf(w, "# TYPE %s %s\n", f.Sample(), f.Type)
		return
	}
	fmt.Fprintf(w, "# TYPE %s %s\n", f.Name, f.Type)
	if f.Unit != "" {
		fmt.Fprintf(w, "# UNIT %s %s\n", f.Name, f.Unit)
	}
	fmt.Fprintf(w, "# HELP %s %s\n", f.Name, escape(f.Help))
}

// groupKey is the label set naming the metric a series belongs to: its
// labels without a summary's quantile or a histogram bucket's le.
func groupKey(s Series) string {
	if s.Family.Type != Summary && s.Family.Type != Histogram {
		return labelText(s.Labels)
	}
	ls := make([][2]string, 0, len(s.Labels))
	for _, l := range s.Labels {
		if l[0] != "quantile" && l[0] != "le" {
			ls = append(ls, l)
		}
	}
	return labelText(ls)
}

// metricGroups splits one family's series into metrics (groupKey), in the
// order each metric first appears, series in their order within it.
func metricGroups(fam []Series) [][]Series {
	var order []string
	groups := make(map[string][]Series) // lookup only; order keeps the sequence
	for _, s := range fam {
		k := groupKey(s)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], s)
	}
	out := make([][]Series, len(order))
	for i, k := range order {
		out[i] = groups[k]
	}
	return out
}

// writeGroup writes one metric's series point by point: at each
// timestamp, in time order, the sample of every series that has one
// there, in series order.
func writeGroup(w *bufio.Writer, g []Series, t0 int64, format Format) {
	labels := make([]string, len(g))
	for j, s := range g {
		labels[j] = labelText(s.Labels)
	}
	next := make([]int, len(g))
	for {
		at, ok := time.Duration(0), false
		for j, s := range g {
			if k := next[j]; k < len(s.Points) && (!ok || s.Points[k].T < at) {
				at, ok = s.Points[k].T, true
			}
		}
		if !ok {
			return
		}
		ts := timestamp(t0+int64(at), format)
		for j, s := range g {
			if k := next[j]; k < len(s.Points) && s.Points[k].T == at {
				sample(w, s.Name, labels[j], s.Points[k].V, ts)
				next[j]++
			}
		}
	}
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

func sample(w *bufio.Writer, name, labels string, v float64, ts string) {
	w.WriteString(name)
	w.WriteString(labels)
	w.WriteByte(' ')
	w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	w.WriteByte(' ')
	w.WriteString(ts)
	w.WriteByte('\n')
}

// timestamp formats nanoseconds since the epoch as the format's
// timestamp: OpenMetrics seconds, exactly (trailing zeros of the fraction
// trimmed), or Prometheus text whole milliseconds (rounded half up).
func timestamp(ns int64, format Format) string {
	if format == PrometheusText {
		ms := ns / 1e6
		if r := ns - ms*1e6; r < 0 {
			ms, r = ms-1, r+1e6
			if r >= 5e5 {
				ms++
			}
		} else if r >= 5e5 {
			ms++
		}
		return strconv.FormatInt(ms, 10)
	}
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

// escapeHelp escapes Prometheus text help: backslash and newline (0.0.4
// knows no other escape in HELP).
func escapeHelp(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}

// escape escapes a label value or OpenMetrics help text: backslash,
// double quote and newline.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
