package sweep

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// TestSweepValuesInAnyOrder: one-axis sweeps over values not ascending,
// over booleans, and over equal values written differently all plot.
func TestSweepValuesInAnyOrder(t *testing.T) {
	for _, values := range []string{`[300, 100, 200]`, `["20ms", "0.02s", "10ms"]`} {
		src := runtest.OneService + "[sweep]\nmetric = \"goodput\"\nx = { path = \"service.api.service_time.mean\", values = " + values + " }\n"
		if strings.Contains(values, "300") {
			src = runtest.OneService + "[sweep]\nmetric = \"goodput\"\nx = { path = \"client.c.rate\", values = " + values + " }\n"
		}
		out, err := Run(context.Background(), runtest.Parse(t, src), run.CompareOptions{Jobs: 1, Plots: true}, output.NewFolder(t.TempDir(), false))
		if err != nil {
			t.Fatalf("%s: %v", values, err)
		}
		if len(out.Warnings) > 0 || len(out.Files) < 4 {
			t.Fatalf("%s: warnings %v, files %v", values, out.Warnings, out.Files)
		}
	}
}

func TestAxisPositions(t *testing.T) {
	steps := []struct {
		in          []float64
		want        []float64
		categorical bool
	}{
		{[]float64{3, 1, 2}, []float64{3, 1, 2}, false},
		{[]float64{1, 0}, []float64{1, 0}, false},
		{[]float64{0.02, 0.02, 0.01}, []float64{0, 1, 2}, true},
		{nil, []float64{0, 1}, true}, // values without numbers
	}
	for _, s := range steps {
		got, cat := axisPositions(s.in, len(s.want))
		if fmt.Sprint(got) != fmt.Sprint(s.want) || cat != s.categorical {
			t.Errorf("%v: %v %v, want %v %v", s.in, got, cat, s.want, s.categorical)
		}
	}
	if got := sortedIndices([]float64{3, 1, 2}); fmt.Sprint(got) != "[1 2 0]" {
		t.Errorf("sortedIndices: %v", got)
	}
}
