package experiments_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
)

// variantClaim is what an experiment's comparison shows: the paired
// difference variant - base of a headline metric, over the file's
// replications, has a 95 % interval entirely above zero (more) or below
// it (less).
type variantClaim struct {
	file, variant, metric string
	more                  bool
}

// variantClaims are the stories the bundled comparisons tell, each one a
// policy with against without (the base has the policy unless said).
var variantClaims = []variantClaim{
	{"adaptive-limit.toml", "no-limit", "goodput", false},
	{"adaptive-limit.toml", "no-limit", "p99_outcome_latency", true},
	{"breaker-fallback.toml", "no-breaker", "p99_latency", true},
	{"breaker-fallback.toml", "no-breaker", "wasted_work", true},
	{"breaker-order.toml", "outside-retry", "success_ratio", false},
	{"bulkhead.toml", "no-bulkhead", "p99_outcome_latency", true},
	{"bulkhead.toml", "no-bulkhead", "wasted_work", true},
	{"cancellation-storm.toml", "at-step", "goodput", true},
	{"cancellation-storm.toml", "continuous", "goodput", true},
	{"cancellation-storm.toml", "continuous", "wasted_work", false},
	{"cancellation-storm.toml", "continuous", "amplification", false},
	{"cancellation-storm.toml", "cancellation-only", "goodput", true},
	{"checkout-pool-exhaustion.toml", "timeout-100ms", "goodput", true},
	{"checkout-pool-exhaustion.toml", "timeout-100ms", "p99_outcome_latency", false},
	{"codel-lifo.toml", "fifo", "goodput", false},
	{"codel-lifo.toml", "codel", "goodput", false},
	{"cold-cache.toml", "short-queue", "goodput", true},
	{"cold-cache.toml", "propagate-deadlines", "goodput", true},
	{"deadline-propagation.toml", "no-propagation", "goodput", false},
	{"deadline-propagation.toml", "no-propagation", "wasted_work", true},
	{"outlier-ejection.toml", "no-ejection", "success_ratio", false},
	{"readiness-trap.toml", "own-readiness", "success_ratio", true},
	{"retry-amplification.toml", "retry-at-the-edge", "amplification", false},
	{"retry-budget-storm.toml", "no-budget", "goodput", false},
	{"retry-budget-storm.toml", "no-budget", "amplification", true},
	{"sticky-failures.toml", "sticky-no-retries", "amplification", false},
	{"sticky-failures.toml", "sticky-budget", "amplification", false},
	{"sticky-failures.toml", "independent", "success_ratio", true},
}

// TestVariantClaims runs every bundled comparison named in variantClaims
// with its own replications (common random numbers, so the paired
// differences are tight) and checks each claim and each [[expect]] of
// the file.
func TestVariantClaims(t *testing.T) {
	byFile := map[string][]variantClaim{}
	var files []string
	for _, c := range variantClaims {
		if byFile[c.file] == nil {
			files = append(files, c.file)
		}
		byFile[c.file] = append(byFile[c.file], c)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			exp, err := experiment.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := compare.RunAll(context.Background(), exp, run.CompareOptions{Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			stats, _ := c.Stats()
			for _, claim := range byFile[f] {
				checkClaim(t, claim, stats)
			}
			for _, r := range run.CheckExpectations(exp, c.ByVariant()) {
				if !r.OK {
					t.Errorf("%v", r)
				}
			}
		})
	}
}

func checkClaim(t *testing.T, claim variantClaim, stats []compare.MetricStats) {
	t.Helper()
	for _, m := range stats {
		if m.Metric.Name != claim.metric {
			continue
		}
		for _, a := range m.Arms {
			if a.Arm != claim.variant {
				continue
			}
			if a.Diff == nil || !a.Diff.Defined {
				t.Errorf("%s %s: no paired difference", claim.variant, claim.metric)
				return
			}
			ci := a.Diff.CI95
			if (claim.more && !(ci.Lo > 0)) || (!claim.more && !(ci.Hi < 0)) {
				t.Errorf("%s: %s - base = %.4g, 95 %% interval [%.4g, %.4g]; want it %s zero",
					claim.variant, claim.metric, a.Diff.Mean, ci.Lo, ci.Hi, map[bool]string{true: "above", false: "below"}[claim.more])
			}
			return
		}
	}
	t.Errorf("%s %s: not in the comparison", claim.variant, claim.metric)
}

// TestComparisonsCount: at least 12 bundled experiments compare variants.
func TestComparisonsCount(t *testing.T) {
	files, err := filepath.Glob("*.toml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		exp, err := experiment.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(exp.Variants) > 0 {
			n++
		}
	}
	if n < 12 {
		t.Errorf("%d bundled experiments compare variants, want at least 12", n)
	}
}
