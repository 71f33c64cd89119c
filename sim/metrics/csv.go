package metrics

import (
	"bufio"
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
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if err := cw.Write(csvHeader); err != nil {
		return fmt.Errorf("metrics: WriteCSV: %w", err)
	}
	rec := make([]string, len(csvHeader))
	for i := range ts.starts {
		rec[0] = formatSeconds(ts.starts[i])
		rec[1] = formatSeconds(ts.ends[i])
		for _, c := range ts.cols {
			rec[2], rec[3], rec[4] = c.entity, c.metric, c.unit
			rec[5] = formatValue(c.values[i])
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("metrics: WriteCSV: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("metrics: WriteCSV: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("metrics: WriteCSV: %w", err)
	}
	return nil
}

// formatSeconds writes integer nanoseconds as exact decimal seconds,
// without trailing zeros.
func formatSeconds(ns int64) string {
	var buf [32]byte
	b := buf[:0]
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
	return string(b)
}

// formatValue formats a value for WriteCSV: shortest round-trip 'g', NaN
// empty.
func formatValue(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
