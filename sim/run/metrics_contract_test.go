package run

import (
	"slices"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestHeadlineMetricsMatchTheFileFormat: the metric names an experiment
// file may name (experiment.SweepMetrics, for [sweep] and [[expect]]) are
// exactly the headline metrics compare computes, plus the locked-in
// probability; renaming one side alone fails here.
func TestHeadlineMetricsMatchTheFileFormat(t *testing.T) {
	var names []string
	for _, m := range Metrics {
		names = append(names, m.Name)
		if !slices.Contains(experiment.SweepMetrics, m.Name) {
			t.Errorf("headline metric %q cannot be named in a file (experiment.SweepMetrics)", m.Name)
		}
	}
	for _, n := range experiment.SweepMetrics {
		if n != "locked_in_probability" && !slices.Contains(names, n) {
			t.Errorf("the file format names metric %q, which compare does not compute", n)
		}
	}
}
