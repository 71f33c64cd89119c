package metrics

import (
	"io"
	"testing"
	"time"
)

func BenchmarkColumnSet(b *testing.B) {
	ts, _ := NewTimeSeries(time.Second)
	c := mustColumn(b, ts, "server", "throughput", "req/s")
	if err := ts.AppendInterval(0, 1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Set(float64(i))
	}
}

// BenchmarkWriteCSV writes 1000 intervals of 10 columns (10,000 rows).
func BenchmarkWriteCSV(b *testing.B) {
	ts, _ := NewTimeSeries(time.Second)
	var cols []*Column
	for _, m := range []string{"throughput", "goodput", "p50", "p99", "p999", "queue", "busy", "errors", "timeouts", "retries"} {
		cols = append(cols, mustColumn(b, ts, "server", m, "x"))
	}
	for i := range int64(1000) {
		if err := ts.AppendInterval(i*1e9, (i+1)*1e9); err != nil {
			b.Fatal(err)
		}
		for j, c := range cols {
			c.Set(float64(i*int64(j)) / 7)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteCSV(io.Discard, ts); err != nil {
			b.Fatal(err)
		}
	}
}
