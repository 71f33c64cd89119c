package promtext

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkParseOpenMetrics parses a ressim-shaped OpenMetrics export of
// 50 series x 600 samples (30 000 points, about 2 MB): the size of a
// ten-minute run of a small experiment.
func BenchmarkParseOpenMetrics(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("# TYPE ressim_service_requests counter\n")
	for s := 0; s < 50; s++ {
		for t := 0; t < 600; t++ {
			fmt.Fprintf(&buf, "ressim_service_requests_total{service=\"svc%d\"} %d %d.000\n", s, t*100, 1767225600+t)
		}
	}
	buf.WriteString("# EOF\n")
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
