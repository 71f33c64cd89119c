package compare

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// seriesRows reads a compare timeseries.csv; nil if the file is absent.
func seriesRows(t *testing.T, dir string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, SeriesFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCompareSeriesModes: "all" writes every replication's series, "first"
// exactly all's rows of replication 0, "none" no file (and removes one an
// earlier comparison left in the directory); the file's compare_series
// applies unless the option overrides it.
func TestCompareSeriesModes(t *testing.T) {
	exp := loadVariants(t)
	dir := t.TempDir()
	compare := func(e *experiment.Experiment, mode string) [][]string {
		t.Helper()
		if _, err := Run(context.Background(), e, run.CompareOptions{Jobs: 2, Series: mode}, output.NewFolder(dir, false)); err != nil {
			t.Fatal(err)
		}
		return seriesRows(t, dir)
	}
	all := compare(exp, experiment.SeriesAll)
	var rep0 [][]string
	reps := map[string]bool{}
	for i, r := range all {
		reps[r[1]] = true
		if i == 0 || r[1] == "0" {
			rep0 = append(rep0, r)
		}
	}
	if len(reps) != 4 { // the header's "replication" and 0, 1, 2
		t.Errorf("all: replications %v, want 0, 1 and 2", reps)
	}
	first := compare(exp, experiment.SeriesFirst)
	if len(first) < 2 || len(first) != len(rep0) || !equalRows(first, rep0) {
		t.Errorf("first: %d rows, want all's %d rows of replication 0", len(first), len(rep0))
	}
	if def := compare(exp, ""); !equalRows(def, first) {
		t.Errorf("the default wrote %d rows, want first's %d", len(def), len(first))
	}
	if none := compare(exp, experiment.SeriesNone); none != nil {
		t.Errorf("none: timeseries.csv still there, %d rows", len(none))
	}
	// The file's key, and the option over it.
	src, err := os.ReadFile(filepath.Join("..", "testdata", "variants.toml"))
	if err != nil {
		t.Fatal(err)
	}
	keyed, err := experiment.Parse("v.toml", bytes.Replace(src, []byte("replications = 3\n"), []byte("replications = 3\ncompare_series = \"all\"\n"), 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := compare(keyed, ""); !equalRows(got, all) {
		t.Errorf("compare_series = \"all\": %d rows, want %d", len(got), len(all))
	}
	if got := compare(keyed, experiment.SeriesNone); got != nil {
		t.Errorf("--series none over compare_series = \"all\" wrote %d rows", len(got))
	}
	if _, err := Run(context.Background(), exp, run.CompareOptions{Series: "some"}, output.NewFolder(dir, false)); err == nil || !strings.Contains(err.Error(), `series must be one of all, first, none, got "some"`) {
		t.Errorf("Series \"some\": err = %v", err)
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], ",") != strings.Join(b[i], ",") {
			return false
		}
	}
	return true
}
