package callgraph

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/telemetry"
)

// fuzzSpans turns bytes into a small span table, six bytes a span, with
// few enough IDs, services and traces that parents, cycles, duplicates
// and shared IDs are common.
func fuzzSpans(data []byte) []telemetry.Span {
	var out []telemetry.Span
	for ; len(data) >= 6; data = data[6:] {
		s := telemetry.Span{
			TraceID: strconv.Itoa(int(data[0] % 3)),
			SpanID:  strconv.Itoa(int(data[1] % 8)),
			Service: "s" + strconv.Itoa(int(data[3]%4)),
			Kind:    telemetry.SpanKind(data[4] % 7),
			Start:   int64(data[5]) * 1e6,
		}
		if p := data[2] % 9; p < 8 {
			s.ParentID = strconv.Itoa(int(p))
		}
		if data[4]&0x80 != 0 {
			s.Peer = "peer"
		}
		s.End = s.Start + int64(int8(data[0]))*1e6
		out = append(out, s)
	}
	return out
}

// FuzzBuild checks that Build never panics and that what it returns is
// consistent: a fan-out that is calls over requests, histograms that sum
// to the caller's requests, and the same graph for the reversed input.
func FuzzBuild(f *testing.F) {
	f.Add([]byte("\x00\x00\x08\x00\x02\x00\x05\x01\x00\x01\x03\x01"))
	f.Add([]byte("\x01\x01\x02\x00\x02\x00\x01\x02\x01\x01\x02\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		spans := fuzzSpans(data)
		g, err := Build(spans, Options{ThinkGap: 3 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		_ = g.Summary()
		for _, e := range g.Edges {
			sum := 0
			for _, n := range e.PerRequest {
				sum += n
			}
			if sum != e.CallerRequests || e.CallerRequests == 0 || e.FanOut != float64(e.Calls)/float64(e.CallerRequests) {
				t.Fatalf("edge %+v: histogram sums to %d", e, sum)
			}
		}
		for _, s := range g.Services {
			for i, own := range s.OwnTimes {
				if own < 0 || i > 0 && own < s.OwnTimes[i-1] {
					t.Fatalf("service %s own times %v", s.Name, s.OwnTimes)
				}
			}
		}
		rev := make([]telemetry.Span, len(spans))
		for i := range spans {
			rev[len(spans)-1-i] = spans[i]
		}
		g2, _ := Build(rev, Options{ThinkGap: 3 * time.Millisecond})
		if !reflect.DeepEqual(g, g2) {
			t.Fatalf("reversed input gave another graph:\n%s\nwant\n%s", g2.Summary(), g.Summary())
		}
	})
}
