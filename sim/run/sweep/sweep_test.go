package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

func TestSweep(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	var outs []*Output
	for _, j := range []int{1, 3} {
		out, err := Run(context.Background(), exp, run.CompareOptions{Jobs: j, Plots: j == 1}, output.NewFolder(t.TempDir(), false))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	for _, name := range []string{CSVFile, JSONFile, MarkdownFile} {
		a, _ := os.ReadFile(filepath.Join(outs[0].Dir, name))
		b, _ := os.ReadFile(filepath.Join(outs[1].Dir, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 3", name)
		}
	}
	// 2 variants x 2 x 2 cells; the heatmaps for both variants.
	if n := len(outs[0].Stats); n != 8 {
		t.Fatalf("%d cell stats, want 8", n)
	}
	if len(outs[0].Files) != 5 {
		t.Errorf("files %v: want 3 tables and 2 heatmaps", outs[0].Files)
	}
	// The physics: at 300/s a 2 s spike locks the retrying base in (300 x
	// 3 attempts > the 500/s capacity), never the single-attempt variant;
	// at 100/s nothing does.
	for _, s := range outs[0].Stats {
		x, y := exp.Sweep.X.Values[s.X], exp.Sweep.Y.Values[s.Y]
		switch {
		case s.Variant == "base" && x == int64(300) && y == "2s":
			if s.Value != 1 {
				t.Errorf("base at 300/s, 2 s spike: locked in %v, want 1", s.Value)
			}
		case s.Variant == "no-retries" || x == int64(100):
			if s.Value != 0 {
				t.Errorf("%s at %v/s, %v: locked in %v, want 0", s.Variant, x, y, s.Value)
			}
		}
	}
}

func TestSweepErrors(t *testing.T) {
	for _, tt := range []struct{ from, to, want string }{
		{`values = [100, 300] }`, `values = [100, "fast"] }`, `a sweep value must be a number`},
		{`path = "client.users.rate"`, `path = "client.nobody.rate"`, `no element named "nobody"`},
		{`values = [100, 300] }`, `values = [100, -3] }`, `must be in (0`},
		{`variants = ["base", "no-retries"]`, `variants = ["base", "ghost"]`, `no variant named "ghost"`},
	} {
		src := bytes.Replace([]byte(runtest.SweepFile), []byte(tt.from), []byte(tt.to), 1)
		_, err := experiment.Parse("sw.toml", src)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.want)) {
			t.Errorf("%s -> %s: err = %v, want %q", tt.from, tt.to, err, tt.want)
		}
	}
}
