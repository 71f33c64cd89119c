package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// chain is TestEstimateLittle's two services under the given names.
func chain(a, b, op string) *observe.Observations {
	lat := &observe.Histogram{Bounds: []float64{0.001, 0.003, math.Inf(1)}, Refs: []observe.Ref{{ID: b + "_bucket", Origin: telemetry.Origin{File: a + b}}}}
	for i := 0; i <= 60; i++ {
		n := 150 * float64(i)
		lat.Points = append(lat.Points, observe.HistogramPoint{T: int64(i) * 1000, Counts: []float64{0.25 * n, n, n}, Sum: 0.002 * n, Count: n})
	}
	return &observe.Observations{Preset: a,
		Services: []observe.Service{
			{Name: a, Requests: ramp(100), Busy: level(2), Workers: level(4)},
			{Name: b, Requests: ramp(150), Busy: level(0.3), Workers: level(2), Latency: lat},
		},
		Edges: []observe.Edge{{Caller: a, Callee: b, Operation: op, Calls: ramp(150)}},
	}
}

// FuzzFitNames: whatever the telemetry's names (they come from label
// values anyone can set), the fitted experiment is valid TOML with
// exactly the fitted tables: a name can become neither a key nor a table
// nor a second line of a comment.
func FuzzFitNames(f *testing.F) {
	f.Add("a", "b", "op")
	f.Add("a\n[[fault]]\nkind = \"error\"", "b\" # x", "\x1b[2J")
	f.Add("", "..", "call")
	f.Add(strings.Repeat("x", 100), strings.Repeat("x", 100), "")
	f.Add("users-a", "a b", "\u2028")
	f.Fuzz(func(t *testing.T, a, b, op string) {
		if a == b {
			return // one service calling itself: not a chain
		}
		m, err := Estimate(chain(a, b, op), Options{Sources: []string{a + "\n" + b}})
		if err != nil {
			t.Fatal(err)
		}
		text := Write(m, WriteOptions{Name: "fuzz"})
		e, err := experiment.Parse("fuzz", []byte(text))
		if err != nil {
			t.Fatalf("the fitted experiment does not parse: %v\n%s", err, text)
		}
		if len(e.Model.Services) != 2 || len(e.Model.Clients) != 1 || strings.Count(text, "\n[[fault]]") != 0 {
			t.Fatalf("%d services, %d clients, want 2 and 1, no fault:\n%s", len(e.Model.Services), len(e.Model.Clients), text)
		}
	})
}
