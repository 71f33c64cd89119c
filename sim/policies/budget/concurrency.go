package budget

import "fmt"

// Concurrency is Envoy's retry budget: the retries in flight may not exceed
// BudgetPercent of the active requests, and the limit never goes below
// MinRetryConcurrency. It is not safe for concurrent use.
type Concurrency struct {
	cfg      ConcurrencyConfig
	inflight int
}

// NewConcurrency validates cfg and returns a Concurrency budget with no
// retries in flight.
func NewConcurrency(cfg ConcurrencyConfig) (*Concurrency, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("budget.NewConcurrency: %w", err)
	}
	return &Concurrency{cfg: cfg}, nil
}

// Config returns the budget's configuration.
func (c *Concurrency) Config() ConcurrencyConfig { return c.cfg }

// Limit returns the most retries allowed in flight when active requests
// (Envoy: active plus pending requests, retries included) are outstanding:
// max(MinRetryConcurrency, floor(BudgetPercent/100 * active)). A negative
// active counts as 0.
func (c *Concurrency) Limit(active int) int {
	return max(c.cfg.MinRetryConcurrency, int(c.cfg.BudgetPercent/100*float64(max(active, 0))))
}

// TryAcquire reports whether one more retry may start while active
// requests are outstanding, and if so counts it in flight. The caller must
// call Release when that retry ends, however it ends.
func (c *Concurrency) TryAcquire(active int) bool {
	if c.inflight >= c.Limit(active) {
		return false
	}
	c.inflight++
	return true
}

// Release ends one retry counted by TryAcquire. With no retry in flight it
// does nothing.
func (c *Concurrency) Release() {
	if c.inflight > 0 {
		c.inflight--
	}
}

// InFlight returns the number of retries in flight.
func (c *Concurrency) InFlight() int { return c.inflight }
