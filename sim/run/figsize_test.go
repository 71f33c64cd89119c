package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
)

func parseExp(t *testing.T, src string) *experiment.Experiment {
	t.Helper()
	exp, err := experiment.Parse("test.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// TestManyFaultsStillPlot: 30 overlapping faults, each label in its own
// row (26 made main fail with "too small for 4 panels" after the whole
// simulation), give every figure, taller, and no warning.
func TestManyFaultsStillPlot(t *testing.T) {
	var b strings.Builder
	b.WriteString(runtest.OneService)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "[[fault]]\nkind = \"latency\"\ntarget = \"api\"\nstart = \"%dms\"\nduration = \"1s\"\nmultiply = 2\nlabel = \"spike number %d\"\n", 20000+i, i)
	}
	out, err := Execute(parseExp(t, b.String()), Options{Plots: true}, output.NewFolder(t.TempDir(), false))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) > 0 {
		t.Fatalf("warnings: %v", out.Warnings)
	}
	for _, f := range []string{"overview.png", "timeline-api.png", SummaryFile} {
		if _, err := os.Stat(filepath.Join(out.Dir, f)); err != nil {
			t.Error(err)
		}
	}
}
