package experiments_test

import (
	"fmt"
	"io/fs"
	"math"
	"testing"

	"github.com/ressim/ressim/experiments"
	"github.com/ressim/ressim/playground"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
)

// maxSteps bounds the positions tried on one slider: a finer knob is
// sampled at maxSteps evenly spaced positions (its ends included).
const maxSteps = 50

// TestEveryExperimentHasKnobs: every bundled experiment declares at least
// one [[knob]] (the playground shows them), and every position of every
// knob gives an experiment that validates and that the page's budget
// accepts: each slider position from min to max by step, each choice,
// the toggle on.
func TestEveryExperimentHasKnobs(t *testing.T) {
	names, err := fs.Glob(experiments.FS(), "*.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no bundled experiments: %v", err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(experiments.FS(), n)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := experiment.Parse(n, b)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if len(exp.Knobs) == 0 {
			t.Errorf("%s declares no [[knob]]", n)
		}
		for _, k := range exp.Knobs {
			for _, v := range knobPositions(k) {
				cfg, err := exp.With(map[string]any{k.Path: v})
				if err != nil {
					t.Errorf("%s: knob %q at %v: %v", n, k.Name, v, err)
					continue
				}
				if err := playground.PageBudget().Check([]runner.PlannedRun{{Model: cfg, Times: 1}}); err != nil {
					t.Errorf("%s: knob %q at %v: the page refuses it: %v", n, k.Name, v, err)
				}
			}
		}
	}
}

// knobPositions lists every value a knob can set (sampled for fine
// sliders), as the page sends them.
func knobPositions(k experiment.Knob) []any {
	switch k.Type {
	case "choice":
		return k.Values
	case "toggle":
		return []any{k.On}
	}
	step := k.Step
	if step == 0 {
		step = 1
		if k.Type == "number" {
			step = (k.Max - k.Min) / 100
		}
	}
	n := int(math.Floor((k.Max-k.Min)/step + 1e-9))
	stride := max(1, n/maxSteps)
	var out []any
	for i := 0; i <= n; i += stride {
		out = append(out, position(k, k.Min+float64(i)*step))
	}
	return append(out, position(k, k.Max))
}

// position is a slider value as the page sends it: whole numbers as
// integers (the page's JSON numbers become int64 when whole).
func position(k experiment.Knob, x float64) any {
	if k.Type == "integer" || x == math.Trunc(x) {
		return int64(math.Round(x))
	}
	// The page's slider gives the decimal the browser prints.
	var f float64
	fmt.Sscan(fmt.Sprintf("%.6g", x), &f)
	return f
}
