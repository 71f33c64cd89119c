package budget_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/retry"
)

// amplification runs rps requests per second for secs seconds against a
// dependency whose attempts fail with probability pFail, through the default
// retry policy (3 attempts) and, if bud is not nil, the retry budget. It
// returns the attempts per request and the budget's denials.
func amplification(t *testing.T, rps, secs int, pFail float64, bud *budget.Bucket) float64 {
	t.Helper()
	pol, err := retry.New(retry.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	n := rps * secs
	attempts := 0
	for i := range n {
		// Every attempt of request i is decided at its arrival instant,
		// which keeps the instants seen by the budget non-decreasing.
		now := time.Duration(i) * time.Second / time.Duration(rps)
		var call retry.Call
		for {
			attempts++
			o := policies.Success
			if rng.Float64() < pFail {
				o = policies.Error
			}
			d := pol.Decide(now, call, o, 0, rng.Float64())
			if bud != nil {
				if o == policies.Success {
					bud.RecordSuccess(now)
				}
				if d.Retry && !bud.TryRetry(now) {
					d = d.Deny(retry.ReasonBudget)
				}
			}
			if !d.Retry {
				break
			}
			call = d.Next
		}
	}
	return float64(attempts) / float64(n)
}

func TestBudgetCutsAmplification(t *testing.T) {
	const rps, secs = 1000, 60
	cfg := budget.DefaultConfig()
	newBudget := func() *budget.Bucket {
		b, err := budget.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// Total failure: without a budget every request makes all 3 attempts.
	if got := amplification(t, rps, secs, 1, nil); got != 3 {
		t.Errorf("total failure, no budget: amplification %v, want 3", got)
	}
	// With the budget, only the initial Capacity and the reserve (its
	// initial token plus MinRetriesPerSec per second) pay for retries:
	// 1 + (100 + 1 + 60)/60000, far below 1 + Ratio.
	b := newBudget()
	got := amplification(t, rps, secs, 1, b)
	want := 1 + (cfg.Capacity+1+cfg.MinRetriesPerSec*secs)/(rps*secs)
	if got > want+1e-9 || got > 1+cfg.Ratio {
		t.Errorf("total failure, budget: amplification %v, want <= %v", got, want)
	}
	t.Logf("total failure: amplification 3 -> %.4f (stats %+v)", got, b.Stats())

	// Half of all attempts fail: 1 + 0.5 + 0.25 = 1.75 without a budget.
	// With it, retries are about Ratio times the successes (about half the
	// attempts), so the amplification is about 1 + Ratio/2: within
	// 1 + Ratio, and above 1 because the successes keep paying for some.
	noBudget := amplification(t, rps, secs, 0.5, nil)
	withBudget := amplification(t, rps, secs, 0.5, newBudget())
	if noBudget < 1.7 || noBudget > 1.8 {
		t.Errorf("half failure, no budget: amplification %v, want about 1.75", noBudget)
	}
	if withBudget > 1+cfg.Ratio || withBudget < 1.03 {
		t.Errorf("half failure, budget: amplification %v, want in [1.03, %v]", withBudget, 1+cfg.Ratio)
	}
	t.Logf("half failure: amplification %.4f -> %.4f", noBudget, withBudget)

	// A minor failure (1 % of attempts): the budget never gets in the way.
	b = newBudget()
	minorNo := amplification(t, rps, secs, 0.01, nil)
	minorWith := amplification(t, rps, secs, 0.01, b)
	if minorNo != minorWith || b.Stats().Denied != 0 {
		t.Errorf("minor failure: amplification %v without budget, %v with (%d denied); want equal, none denied",
			minorNo, minorWith, b.Stats().Denied)
	}
}
