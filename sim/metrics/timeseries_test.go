package metrics

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s\nwant:\n%s", name, got, want)
	}
}

func mustColumn(t testing.TB, ts *TimeSeries, entity, metric, unit string) *Column {
	t.Helper()
	c, err := ts.Column(entity, metric, unit)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sampleSeries builds the series of the golden test: three intervals of
// 500 ms, the last one cut short, a column registered late, a column left
// unset in one interval, awkward names and special values.
func sampleSeries(t testing.TB) *TimeSeries {
	ts, err := NewTimeSeries(500 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	thr := mustColumn(t, ts, "server", "throughput", "req/s")
	p99 := mustColumn(t, ts, "server", "latency_p99", "s")
	good := mustColumn(t, ts, "client", "goodput", "req/s")
	ms := int64(time.Millisecond)
	steps := []struct {
		start, end     int64
		thr, p99, good float64
	}{
		{0, 500 * ms, 1000, 0.02, 1000},
		{500 * ms, 1000 * ms, 1234.5, 5.000000001, math.NaN()},
		{1000 * ms, 1250 * ms, 0, math.Inf(1), 1e-7},
	}
	var odd *Column
	for i, s := range steps {
		if err := ts.AppendInterval(s.start, s.end); err != nil {
			t.Fatal(err)
		}
		thr.Set(s.thr)
		p99.Set(s.p99)
		if i != 1 {
			good.Set(s.good)
		}
		if i == 1 {
			odd = mustColumn(t, ts, "db, \"primary\"", "queue length", "")
		}
		if odd != nil {
			odd.Set(float64(i) / 3)
		}
	}
	return ts
}

func TestWriteCSVGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, sampleSeries(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "timeseries.csv", buf.Bytes())
	var again bytes.Buffer
	if err := WriteCSV(&again, sampleSeries(t)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two writes of the same series differ")
	}
}

// TestWriteCSVMatchesReference writes a series larger than WriteCSV's
// 64 KiB buffer, with labels that need quoting and values of every kind,
// and checks it byte for byte against encoding/csv (writeCSVReference).
func TestWriteCSVMatchesReference(t *testing.T) {
	ts, _ := NewTimeSeries(1_000_123 * time.Nanosecond)
	cols := []*Column{
		mustColumn(t, ts, "api,v2", "p99 \"latency\"", "s"),
		mustColumn(t, ts, " leading", "goodput", "req/s"),
		mustColumn(t, ts, "db", "never set", ""),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e21, 1e-7, math.MaxFloat64,
		999999, -999999, 1e6, -1e6, 1234567, 3, -3, 0.5}
	for i := range 3000 {
		start := int64(i) * 1_000_123
		if err := ts.AppendInterval(start, start+1_000_123); err != nil {
			t.Fatal(err)
		}
		cols[0].Set(rng.NormFloat64() * 1e3)
		cols[1].Set(special[i%len(special)])
	}
	var got, want bytes.Buffer
	if err := WriteCSV(&got, ts); err != nil {
		t.Fatal(err)
	}
	if err := writeCSVReference(&want, ts); err != nil {
		t.Fatal(err)
	}
	if got.Len() < 128<<10 {
		t.Fatalf("only %d bytes: the test should cross the 64 KiB buffer", got.Len())
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("WriteCSV differs from encoding/csv")
	}
	if err := WriteCSV(&failAfter{left: 100 << 10}, ts); err == nil || !strings.Contains(err.Error(), "WriteCSV") {
		t.Errorf("a failing writer: err = %v, want the write error", err)
	}
}

// TestCSVBound: CSVBound is at least what WriteCSV writes, and exact for
// the longest values and instants: here only the first start, "0", is
// shorter than its bound ("s.nnnnnnnnn"), by 10 bytes in each of the 2
// columns.
func TestCSVBound(t *testing.T) {
	const iv = 1_000_000_001
	ts, _ := NewTimeSeries(iv * time.Nanosecond)
	cols := []*Column{mustColumn(t, ts, "api,v2", "p99 \"latency\"", "s"), mustColumn(t, ts, "db", "x", "")}
	longest := -2.2250738585072014e-308
	for i := range int64(3) {
		if err := ts.AppendInterval(i*iv, (i+1)*iv); err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			c.Set(longest)
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, ts); err != nil {
		t.Fatal(err)
	}
	bound := CSVBound([][3]string{{"api,v2", "p99 \"latency\"", "s"}, {"db", "x", ""}}, 3, 3*iv)
	if bound-buf.Len() != 2*10 {
		t.Errorf("CSVBound %d, WriteCSV wrote %d: want 20 bytes more", bound, buf.Len())
	}
}

// failAfter is a writer that fails once more than left bytes are written.
type failAfter struct{ left int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.left < len(p) {
		return 0, errors.New("disk full")
	}
	f.left -= len(p)
	return len(p), nil
}

func TestTimeSeriesColumns(t *testing.T) {
	ts, _ := NewTimeSeries(time.Second)
	a := mustColumn(t, ts, "server", "throughput", "req/s")
	b := mustColumn(t, ts, "client", "throughput", "req/s")
	if again := mustColumn(t, ts, "server", "throughput", "req/s"); again != a {
		t.Error("registering the same column twice gave a new handle")
	}
	if _, err := ts.Column("server", "throughput", "req/min"); err == nil {
		t.Error("re-registering with another unit succeeded")
	}
	for _, bad := range [][3]string{{"", "m", "u"}, {"e", "", "u"}, {"e\n", "m", "u"}, {"e", "m\r", "u"},
		{"e", "m", "u\x00"}, {"e", "m", "\xff"}} {
		if _, err := ts.Column(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Column(%q, %q, %q) succeeded", bad[0], bad[1], bad[2])
		}
	}
	if ts.Find("client", "throughput") != b || ts.Find("client", "nothing") != nil {
		t.Error("Find returned the wrong column")
	}
	cols := ts.Columns()
	if len(cols) != 2 || cols[0] != a || cols[1] != b {
		t.Errorf("Columns() = %v, want [a b]", cols)
	}
	cols[0] = nil
	if ts.Columns()[0] != a {
		t.Error("Columns() exposed internal storage")
	}
	if a.Entity() != "server" || a.Metric() != "throughput" || a.Unit() != "req/s" {
		t.Errorf("column names %q %q %q", a.Entity(), a.Metric(), a.Unit())
	}
}

// TestTimeSeriesSteps appends intervals and sets values step by step,
// checking the NaN rule and the interval validation.
func TestTimeSeriesSteps(t *testing.T) {
	ts, _ := NewTimeSeries(10)
	a := mustColumn(t, ts, "e", "a", "")
	var late *Column
	nan := math.NaN()
	for i, st := range []struct {
		action     string
		start, end int64
		value      float64
		wantErr    bool
		wantLen    int
		wantA      []float64
	}{
		{action: "append", start: 0, end: 10, wantLen: 1, wantA: []float64{nan}},
		{action: "set", value: 1, wantLen: 1, wantA: []float64{1}},
		{action: "set", value: 2, wantLen: 1, wantA: []float64{2}},
		{action: "append", start: 10, end: 10, wantErr: true, wantLen: 1, wantA: []float64{2}},
		{action: "append", start: 9, end: 19, wantErr: true, wantLen: 1, wantA: []float64{2}},
		{action: "append", start: 10, end: 21, wantErr: true, wantLen: 1, wantA: []float64{2}},
		{action: "append", start: 10, end: 20, wantLen: 2, wantA: []float64{2, nan}},
		{action: "register", wantLen: 2, wantA: []float64{2, nan}},
		{action: "append", start: 25, end: 30, wantLen: 3, wantA: []float64{2, nan, nan}},
		{action: "set", value: -0.5, wantLen: 3, wantA: []float64{2, nan, -0.5}},
	} {
		var err error
		switch st.action {
		case "append":
			err = ts.AppendInterval(st.start, st.end)
		case "set":
			a.Set(st.value)
		case "register":
			late = mustColumn(t, ts, "e", "late", "")
		}
		if (err != nil) != st.wantErr {
			t.Errorf("step %d %s: error %v, want error %v", i, st.action, err, st.wantErr)
		}
		if ts.Len() != st.wantLen || a.Len() != st.wantLen {
			t.Fatalf("step %d: Len %d/%d, want %d", i, ts.Len(), a.Len(), st.wantLen)
		}
		for j, w := range st.wantA {
			if g := a.Value(j); g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Errorf("step %d: a[%d] = %v, want %v", i, j, g, w)
			}
		}
	}
	if late.Len() != 3 || !math.IsNaN(late.Value(0)) || !math.IsNaN(late.Value(2)) {
		t.Errorf("late column %v, want 3 NaN", late.Values())
	}
	if ts.Start(2) != 25 || ts.End(2) != 30 || ts.Interval() != 10 {
		t.Errorf("axis: Start(2) %d End(2) %d Interval %d", ts.Start(2), ts.End(2), ts.Interval())
	}
}

func TestNewTimeSeriesErrors(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		if _, err := NewTimeSeries(d); err == nil {
			t.Errorf("NewTimeSeries(%v) succeeded", d)
		}
	}
}

func TestColumnSetBeforeInterval(t *testing.T) {
	ts, _ := NewTimeSeries(time.Second)
	c := mustColumn(t, ts, "e", "m", "u")
	defer func() {
		if r := recover(); !errors.Is(asError(r), errNoInterval) {
			t.Errorf("Set before AppendInterval: recovered %v, want errNoInterval", r)
		}
	}()
	c.Set(1)
}

func asError(r any) error {
	err, _ := r.(error)
	return err
}

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		ns   int64
		want string
	}{
		{0, "0"}, {1, "0.000000001"}, {1_500_000_000, "1.5"}, {1_000_000_000, "1"},
		{123_456_789_012, "123.456789012"}, {-250_000_000, "-0.25"},
		{math.MaxInt64, "9223372036.854775807"}, {math.MinInt64, "-9223372036.854775808"},
	} {
		if got := formatSeconds(tc.ns); got != tc.want {
			t.Errorf("formatSeconds(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{math.NaN(), ""}, {0, "0"}, {math.Copysign(0, -1), "-0"}, {0.1, "0.1"}, {1e6, "1e+06"},
		{123456, "123456"}, {1.0 / 3, "0.3333333333333333"}, {math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"},
	} {
		if got := formatValue(tc.v); got != tc.want {
			t.Errorf("formatValue(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestColumnSetAllocs(t *testing.T) {
	ts, _ := NewTimeSeries(time.Second)
	c := mustColumn(t, ts, "e", "m", "u")
	if err := ts.AppendInterval(0, 1); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(1000, func() { c.Set(3) }); a != 0 {
		t.Errorf("Set allocates %v times", a)
	}
}
