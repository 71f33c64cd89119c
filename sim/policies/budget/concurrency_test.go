package budget

import (
	"errors"
	"math"
	"testing"
)

func TestConcurrencySteps(t *testing.T) {
	c, err := NewConcurrency(DefaultConcurrencyConfig())
	if err != nil {
		t.Fatal(err)
	}
	const (
		acquire = "acquire"
		release = "release"
	)
	steps := []struct {
		action   string
		active   int
		ok       bool
		limit    int
		inflight int
	}{
		{acquire, 0, true, 3, 1}, // floor min_retry_concurrency 3
		{acquire, 10, true, 3, 2},
		{acquire, 10, true, 3, 3},
		{acquire, 10, false, 3, 3}, // 20 % of 10 = 2 < 3
		{acquire, 20, true, 4, 4},  // 20 % of 20 = 4
		{acquire, 24, false, 4, 4}, // floor(4.8) = 4
		{acquire, 25, true, 5, 5},
		{acquire, 100, true, 20, 6},
		{release, 100, true, 20, 5},
		{release, 100, true, 20, 4},
		{acquire, 5, false, 3, 4}, // active fell: no new retry until below 3
		{release, 5, true, 3, 3},
		{release, 5, true, 3, 2},
		{release, 5, true, 3, 1},
		{release, 5, true, 3, 0},
		{release, 5, true, 3, 0}, // extra release is ignored
		{acquire, -7, true, 3, 1},
	}
	for i, st := range steps {
		ok := true
		if st.action == acquire {
			ok = c.TryAcquire(st.active)
		} else {
			c.Release()
		}
		if ok != st.ok || c.Limit(st.active) != st.limit || c.InFlight() != st.inflight {
			t.Errorf("step %d (%s, active %d): ok %v limit %d inflight %d; want %v %d %d",
				i, st.action, st.active, ok, c.Limit(st.active), c.InFlight(), st.ok, st.limit, st.inflight)
		}
	}
}

func TestConcurrencyConfigValidate(t *testing.T) {
	bad := []ConcurrencyConfig{
		{BudgetPercent: -1, MinRetryConcurrency: 3},
		{BudgetPercent: 101, MinRetryConcurrency: 3},
		{BudgetPercent: math.NaN(), MinRetryConcurrency: 3},
		{BudgetPercent: 20, MinRetryConcurrency: -1},
	}
	for _, c := range bad {
		if _, err := NewConcurrency(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("NewConcurrency(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	// The zero config would refuse every retry whatever the load: a budget
	// that is never a budget. It is rejected; retry MaxAttempts 1 says
	// "no retries" plainly.
	if _, err := NewConcurrency(ConcurrencyConfig{}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewConcurrency(zero config) error = %v, want ErrInvalidConfig", err)
	}
	// Either field alone makes a working budget.
	for _, c := range []ConcurrencyConfig{{BudgetPercent: 20}, {MinRetryConcurrency: 1}} {
		if b, err := NewConcurrency(c); err != nil || !b.TryAcquire(5) {
			t.Errorf("NewConcurrency(%+v) = %v; want a budget allowing one retry of 5 active", c, err)
		}
	}
}
