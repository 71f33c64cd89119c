package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/run"
)

// TestCompareTablesNameTheContract: compare.csv's metric and unit columns
// and compare.md's header name every headline metric as the contract
// does, the locked-in probability last.
func TestCompareTablesNameTheContract(t *testing.T) {
	var stats []MetricStats
	for _, m := range run.Metrics {
		stats = append(stats, MetricStats{Metric: m, Arms: []ArmStat{{Arm: "base"}}})
	}
	locked := []LockedIn{{Arm: "base", Total: 1}}
	var csvOut strings.Builder
	if err := writeCompareCSV(&csvOut, stats, locked); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, line := range strings.Split(strings.TrimSpace(csvOut.String()), "\n")[1:] {
		f := strings.Split(line, ",")
		got = append(got, f[0]+" "+f[1])
	}
	var header []string
	for _, k := range append(headline.Select(func(d headline.Def) bool { return d.PerRun }), headline.LockedInProbability) {
		want = append(want, k.Name()+" "+k.Unit())
		h := k.Label()
		if k.Def().PerRun {
			unit := k.Unit()
			if k == headline.P99Latency || k == headline.P99OutcomeLatency {
				unit = "ms" // the tables people read show latencies as the figures do
			}
			h += " (" + unit + ")"
		}
		header = append(header, h)
	}
	if !slices.Equal(got, want) {
		t.Errorf("compare.csv metrics %q,\nwant %q", got, want)
	}
	var md strings.Builder
	c := &Comparison{Name: "x", Arms: []run.Arm{{Name: "base"}}}
	if err := WriteTable(&md, c, stats, locked, true); err != nil {
		t.Fatal(err)
	}
	if h := "| variant | " + strings.Join(header, " | ") + " |"; !strings.Contains(md.String(), h) {
		t.Errorf("compare.md has no header\n%s\nin\n%s", h, md.String())
	}
}
