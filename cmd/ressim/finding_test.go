package main

import (
	"strings"
	"testing"
)

// TestCompareLeadsWithFinding: `ressim compare` on the workshop's
// metastable-retry-storm opens with a line naming the variants that stay
// locked in and those that recover; with one replication it says that
// there is no interval.
func TestCompareLeadsWithFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five variants")
	}
	code, out, errOut := ressim("compare", "../../experiments/metastable-retry-storm.toml", "-o", t.TempDir(),
		"--replications", "2", "--no-plots", "--series", "none")
	first, _, _ := strings.Cut(out, "\n")
	want := "metastable-retry-storm: base, backoff-jitter stay locked in; no-retries, retry-budget, breaker, cut-retries-at-120s recover"
	if code != exitOK || !strings.HasPrefix(first, want) {
		t.Errorf("exit %d, first line %q, want it to start %q\n%s", code, first, want, errOut)
	}
	if strings.Contains(out, "no interval") {
		t.Error("2 replications, and the output says there is no interval")
	}
	code, out, errOut = ressim("compare", "../../sim/run/testdata/variants.toml", "-o", t.TempDir(),
		"--replications", "1", "--no-plots", "--series", "none")
	if lines := strings.SplitN(out, "\n", 3); code != exitOK || len(lines) < 2 || !strings.Contains(lines[0]+lines[1], "no interval") {
		t.Errorf("1 replication: exit %d, no note on the missing interval at the top\n%s%s", code, out, errOut)
	}
}

// TestSweepLeadsWithFinding: `ressim sweep` opens with where the base
// stays locked in.
func TestSweepLeadsWithFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a grid")
	}
	code, out, errOut := ressim("sweep", "../../sim/run/testdata/sweep-tiny.toml", "-o", t.TempDir(), "--no-plots")
	first, _, _ := strings.Cut(out, "\n")
	if code != exitOK || !strings.Contains(first, "locked in") && !strings.Contains(first, "recover") && !strings.Contains(first, "collapse") {
		t.Errorf("exit %d, first line %q: no finding\n%s", code, first, errOut)
	}
}
