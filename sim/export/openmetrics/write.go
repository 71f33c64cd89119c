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

// series is one exported column: its mapping and the labels its entity
// gives it.
type series struct {
	col    *metrics.Column
	m      Mapping
	labels [][2]string
}

// Write writes res's time series to w as OpenMetrics text, ending with
// "# EOF". The same result and options always give the same bytes.
func Write(w io.Writer, res *topology.Result, opt Options) error {
	all, err := exported(res)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	ts := res.Series
	t0 := opt.start()
	for _, f := range Families() {
		var fs []series
		for _, s := range all {
			if s.m.Family == f.Name {
				fs = append(fs, s)
			}
		}
		if len(fs) == 0 {
			continue
		}
		writeHeader(bw, f)
		for _, s := range fs {
			writeSeries(bw, f, s, ts, t0)
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

// writeSeries writes one column's samples: a counter's running total
// (0 at the first interval's start, then after every interval), a
// gauge's value at every interval's end where it has one.
func writeSeries(w *bufio.Writer, f Family, s series, ts *metrics.TimeSeries, t0 int64) {
	name := f.Sample()
	if len(s.m.State) > 0 {
		for k, st := range s.m.State {
			lb := labelText(append(append([][2]string(nil), s.labels...), [2]string{"state", st}))
			for i := range ts.Len() {
				v := s.col.Value(i)
				if math.IsNaN(v) {
					continue
				}
				one := 0.0
				if int(math.Round(v)) == k {
					one = 1
				}
				sample(w, name, lb, one, t0+ts.End(i))
			}
		}
		return
	}
	lb := labelText(s.labels)
	if f.Type == Counter {
		total := 0.0
		sample(w, name, lb, 0, t0+ts.Start(0))
		for i := range ts.Len() {
			total += increment(s, ts, i)
			sample(w, name, lb, total, t0+ts.End(i))
		}
		return
	}
	for i := range ts.Len() {
		if v := s.col.Value(i); !math.IsNaN(v) {
			sample(w, name, lb, v*s.m.Scale, t0+ts.End(i))
		}
	}
}

// increment is what a counter column adds in interval i: its rate times
// the interval's length, a whole number for counts.
func increment(s series, ts *metrics.TimeSeries, i int) float64 {
	v := s.col.Value(i)
	if math.IsNaN(v) {
		return 0
	}
	d := v * s.m.Scale * float64(ts.End(i)-ts.Start(i)) / 1e9
	if s.m.Integer {
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
