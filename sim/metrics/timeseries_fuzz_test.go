package metrics

import (
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"testing"
	"time"
)

// FuzzWriteCSV builds a series from arbitrary names, instants and values,
// writes it, parses it back with encoding/csv and checks that every row is
// there, in order, with the exact instants and values.
func FuzzWriteCSV(f *testing.F) {
	f.Add("server", "throughput", "req/s", int64(0), int64(1_500_000_000), 3, 12.5)
	f.Add("a,\"b\"\n", " m", "", int64(-7), int64(1), 1, math.Inf(-1))
	f.Add("e", "m", "u", int64(1), int64(999_999_999), 4, math.NaN())
	f.Fuzz(func(t *testing.T, entity, metric, unit string, start, width int64, n int, v float64) {
		if width <= 0 || start > math.MaxInt64/4 || start < math.MinInt64/4 || width > math.MaxInt64/64 {
			return
		}
		n = n%8 + 1
		if n < 1 {
			n += 8
		}
		ts, err := NewTimeSeries(time.Duration(width))
		if err != nil {
			t.Fatal(err)
		}
		c, err := ts.Column(entity, metric, unit)
		if entity == "" || metric == "" || !validName(entity) || !validName(metric) || !validName(unit) {
			if err == nil {
				t.Fatalf("bad name accepted: %q %q %q", entity, metric, unit)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		other, _ := ts.Column(entity+"2", metric, unit) // left unset: NaN
		for i := range n {
			s := start + int64(i)*width
			if err := ts.AppendInterval(s, s+width); err != nil {
				t.Fatal(err)
			}
			c.Set(v * float64(i))
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, ts); err != nil {
			t.Fatal(err)
		}
		var ref bytes.Buffer
		if err := writeCSVReference(&ref, ts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), ref.Bytes()) {
			t.Fatalf("WriteCSV differs from encoding/csv:\n got %q\nwant %q", buf.Bytes(), ref.Bytes())
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, buf.Bytes())
		}
		if len(rows) != 1+2*n {
			t.Fatalf("%d rows, want %d", len(rows), 1+2*n)
		}
		for r, row := range rows[1:] {
			i, col := r/2, c
			if r%2 == 1 {
				col = other
			}
			if row[0] != formatSeconds(ts.Start(i)) || row[1] != formatSeconds(ts.End(i)) ||
				row[2] != col.Entity() || row[3] != col.Metric() || row[4] != col.Unit() {
				t.Fatalf("row %d = %q", r, row)
			}
			want := col.Value(i)
			if math.IsNaN(want) {
				if row[5] != "" {
					t.Fatalf("row %d: NaN written as %q", r, row[5])
				}
				continue
			}
			got, err := strconv.ParseFloat(row[5], 64)
			if err != nil || got != want || math.Signbit(got) != math.Signbit(want) {
				t.Fatalf("row %d: value %q, want %v", r, row[5], want)
			}
		}
	})
}

// writeCSVReference is WriteCSV as first written, a csv.Writer per row:
// the byte-for-byte reference for the hand-rolled one.
func writeCSVReference(w io.Writer, ts *TimeSeries) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	rec := make([]string, len(csvHeader))
	for i := range ts.starts {
		rec[0] = formatSeconds(ts.starts[i])
		rec[1] = formatSeconds(ts.ends[i])
		for _, c := range ts.cols {
			rec[2], rec[3], rec[4] = c.entity, c.metric, c.unit
			rec[5] = ""
			if !math.IsNaN(c.values[i]) {
				rec[5] = strconv.FormatFloat(c.values[i], 'g', -1, 64)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
