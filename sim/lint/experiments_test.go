package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// loadBundled reads a bundled experiment, named as in the repository so
// that positions and goldens do not depend on the test's directory.
func loadBundled(t *testing.T, name string) (*experiment.Experiment, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "experiments", name))
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse("experiments/"+name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e, src
}

// has reports whether the report holds a finding of rule for variant.
func has(r *Report, rule, variant string) bool {
	for _, f := range r.Findings {
		if f.Rule == rule && f.Variant == variant {
			return true
		}
	}
	return false
}

// TestBundledMistakes: each experiment that shows a mistake on purpose is
// flagged with the rule for it, and its fixing variant is clean of that
// rule.
func TestBundledMistakes(t *testing.T) {
	cases := []struct {
		file, rule, broken, fixed string
	}{
		{"retry-amplification.toml", "RS007", "base", "retry-at-the-edge"},
		{"readiness-trap.toml", "RS014", "base", "own-readiness"},
		{"checkout-pool-exhaustion.toml", "RS002", "base", "timeout-100ms"},
		{"deadline-propagation.toml", "RS003", "no-propagation", "base"},
		{"hedging.toml", "RS020", "hedged", "hedged-cancelled"},
		{"sticky-failures.toml", "RS021", "base", "sticky-no-retries"},
	}
	for _, c := range cases {
		e, src := loadBundled(t, c.file)
		r, err := Check(e, src, AllVariants)
		if err != nil {
			t.Fatal(err)
		}
		if !has(r, c.rule, c.broken) {
			t.Errorf("%s [%s]: %s not reported; findings %+v", c.file, c.broken, c.rule, r.Findings)
		}
		if has(r, c.rule, c.fixed) {
			t.Errorf("%s [%s]: %s reported on the fixing variant", c.file, c.fixed, c.rule)
		}
	}
}

// TestRetryAmplification27: three layers of 3 attempts give 27x at the
// database (3^3, the file's own comment); retrying at the edge only, 3x.
func TestRetryAmplification27(t *testing.T) {
	e, src := loadBundled(t, "retry-amplification.toml")
	r, err := Check(e, src, AllVariants)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"base": 27, "retry-at-the-edge": 3}
	for _, p := range r.Paths {
		if p.Amplification != want[p.Variant] {
			t.Errorf("[%s] %v: amplification %d, want %d", p.Variant, p.Hops, p.Amplification, want[p.Variant])
		}
	}
	if len(r.Paths) != 2 {
		t.Errorf("%d paths, want 2", len(r.Paths))
	}
}

// TestEveryBundledExperimentLints: lint runs on every bundled experiment
// and every variant, and each finding has a real position and a known
// rule.
func TestEveryBundledExperimentLints(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "experiments", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiments: %v", err)
	}
	for _, f := range files {
		e, src := loadBundled(t, filepath.Base(f))
		r, err := Check(e, src, AllVariants)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range r.Findings {
			if _, ok := ruleByID(fd.Rule); !ok || fd.Line < 1 || fd.Col < 1 {
				t.Errorf("%s: bad finding %+v", f, fd)
			}
		}
		if len(r.Paths) == 0 {
			t.Errorf("%s: no call path", f)
		}
	}
}
