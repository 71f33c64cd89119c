package metrics

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// csvHeader is the header row written by WriteCSV.
var csvHeader = []string{"t_start_s", "t_end_s", "entity", "metric", "unit", "value"}

// WriteCSV writes ts to w as tidy (long-form) CSV, RFC 4180 as written by
// encoding/csv with "\n" line endings: the header
//
//	t_start_s,t_end_s,entity,metric,unit,value
//
// then one row per (interval, column), intervals in time order and, within
// an interval, columns in registration order.
//
// Number format, chosen so that the same series gives the same bytes on any
// machine: instants are exact decimal seconds converted from integer
// nanoseconds (1500000000 ns is "1.5", 0 is "0", never an exponent);
// values are strconv.FormatFloat(v, 'g', -1, 64), the shortest string that
// parses back to the same float64 ("0.25", "1e+06", "+Inf", "-Inf"), and NaN
// is an empty field. Fields containing a comma, quote or newline, or
// starting with a space, are quoted, as encoding/csv does.
func WriteCSV(w io.Writer, ts *TimeSeries) error {
	// The labels of a column are encoded once, as encoding/csv would encode
	// them; the instants once per interval; a value never needs quoting.
	// Each row is then a few appends to one buffer, flushed in 64 KiB
	// pieces: this is what every run writes, and it is 3 times faster than
	// a csv.Writer per field.
	var enc csvEncoder
	labels := make([][]byte, len(ts.cols))
	for j, c := range ts.cols {
		labels[j] = enc.fields(c.entity, c.metric, c.unit)
	}
	buf := make([]byte, 0, 64<<10)
	buf = append(buf, enc.fields(csvHeader...)...)
	buf[len(buf)-1] = '\n'
	var span []byte
	for i := range ts.starts {
		span = appendSeconds(span[:0], ts.starts[i])
		span = append(span, ',')
		span = appendSeconds(span, ts.ends[i])
		span = append(span, ',')
		for j, c := range ts.cols {
			buf = append(buf, span...)
			buf = append(buf, labels[j]...)
			buf = appendValue(buf, c.values[i])
			buf = append(buf, '\n')
			if len(buf) >= 60<<10 {
				if _, err := w.Write(buf); err != nil {
					return fmt.Errorf("metrics: WriteCSV: %w", err)
				}
				buf = buf[:0]
			}
		}
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("metrics: WriteCSV: %w", err)
	}
	return nil
}

// csvEncoder encodes fields as encoding/csv writes them.
type csvEncoder struct {
	buf bytes.Buffer
	w   *csv.Writer
}

// fields returns the fields encoded as encoding/csv writes them, each
// followed by a comma, in a new slice.
func (e *csvEncoder) fields(fields ...string) []byte {
	if e.w == nil {
		e.w = csv.NewWriter(&e.buf)
	}
	e.buf.Reset()
	e.w.Write(append(fields[:len(fields):len(fields)], "")) // a bytes.Buffer does not fail
	e.w.Flush()
	return bytes.Clone(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
}

// formatSeconds writes integer nanoseconds as exact decimal seconds,
// without trailing zeros.
func formatSeconds(ns int64) string {
	var buf [32]byte
	return string(appendSeconds(buf[:0], ns))
}

// appendSeconds appends formatSeconds(ns) to b.
func appendSeconds(b []byte, ns int64) []byte {
	u := uint64(ns)
	if ns < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/1e9, 10)
	if frac := u % 1e9; frac != 0 {
		var f [9]byte
		for i := 8; i >= 0; i-- {
			f[i] = byte('0' + frac%10)
			frac /= 10
		}
		n := 9
		for f[n-1] == '0' {
			n--
		}
		b = append(b, '.')
		b = append(b, f[:n]...)
	}
	return b
}

// appendValue appends formatValue(v) to b. Whole numbers of fewer than 7
// digits (counts, busy workers: most of a run's values) go through
// AppendInt, which writes what 'g' does for them (from 10^6 on 'g' uses an
// exponent, "1e+06"); negative zero keeps its sign.
func appendValue(b []byte, v float64) []byte {
	if v == math.Trunc(v) && v > -1e6 && v < 1e6 && (v != 0 || !math.Signbit(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	if math.IsNaN(v) {
		return b
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// formatValue formats a value for WriteCSV: shortest round-trip 'g', NaN
// empty.
func formatValue(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// maxValueBytes is the longest value field: the shortest round-trip
// form of a float64 is at most 24 bytes ("-2.2250738585072014e-308").
const maxValueBytes = 24

// CSVBound bounds the bytes WriteCSV writes for a series of the given
// intervals whose columns are labelled labels ((entity, metric, unit)
// each) and whose instants are at most end nanoseconds: the header, then
// per interval and column the two instants at their longest (the whole
// seconds of end and 9 decimals), the labels as encoding/csv quotes them,
// the longest value and the newline. runner.Estimate bounds the size of
// timeseries.csv with it, from the configuration alone.
func CSVBound(labels [][3]string, intervals int, end int64) int {
	var enc csvEncoder
	span := 2 * (len(strconv.FormatInt(end/1e9, 10)) + 1 + 9 + 1) // "s.nnnnnnnnn," twice
	row := 0
	for _, l := range labels {
		row += span + len(enc.fields(l[0], l[1], l[2])) + maxValueBytes + 1
	}
	return len(enc.fields(csvHeader...)) + intervals*row
}
