package budget

import (
	"fmt"
	"math"
	"time"
)

// Defaults and bounds for Finagle, from Finagle's RetryBudget.apply()
// (finagle-core com.twitter.finagle.service.RetryBudget).
const (
	// DefaultFinagleTTL is how long a deposit or withdrawal counts, 10 s.
	DefaultFinagleTTL = 10 * time.Second
	// DefaultFinagleMinRetriesPerSec is the reserve rate, 10 retries/s.
	DefaultFinagleMinRetriesPerSec = 10
	// DefaultPercentCanRetry is the retries allowed per request, 0.2.
	DefaultPercentCanRetry = 0.2

	// MinFinagleTTL and MaxFinagleTTL bound TTL, as Finagle does.
	MinFinagleTTL = 1 * time.Second
	MaxFinagleTTL = 60 * time.Second
	// MaxFinagleMinRetriesPerSec bounds MinRetriesPerSec so that the
	// reserve fits in 64 bits (Finagle bounds it only by its Int).
	MaxFinagleMinRetriesPerSec = 1_000_000
	// MaxPercentCanRetry is Finagle's bound on PercentCanRetry.
	MaxPercentCanRetry = 1000.0
)

// finagleScale is Finagle's TokenRetryBudget.ScaleFactor: a deposit is
// worth 1000 units and a withdrawal 1000/PercentCanRetry units.
const finagleScale = 1000.0

// finagleSlices is the number of slices of Finagle's WindowedAdder.
const finagleSlices = 10

// FinagleConfig configures a Finagle budget. Start from
// DefaultFinagleConfig.
type FinagleConfig struct {
	// TTL is how long a deposit or a withdrawal counts, in slices of
	// TTL/10 (Finagle's ttl). Default 10 s; range [1 s, 60 s].
	TTL time.Duration
	// MinRetriesPerSec is the reserve: TTL (in whole seconds) times this
	// many retries are allowed per TTL on top of the deposits (Finagle's
	// minRetriesPerSec). Default 10; range [0, MaxFinagleMinRetriesPerSec].
	MinRetriesPerSec int
	// PercentCanRetry is the number of retries each request pays for, as a
	// fraction: 0.2 lets one request in five be retried (Finagle's
	// percentCanRetry). Default 0.2; range 0 or [1e-6, MaxPercentCanRetry].
	PercentCanRetry float64
}

// DefaultFinagleConfig returns Finagle's RetryBudget() defaults: TTL 10 s,
// MinRetriesPerSec 10, PercentCanRetry 0.2.
func DefaultFinagleConfig() FinagleConfig {
	return FinagleConfig{TTL: DefaultFinagleTTL, MinRetriesPerSec: DefaultFinagleMinRetriesPerSec,
		PercentCanRetry: DefaultPercentCanRetry}
}

// Validate reports the first problem with c, wrapped around
// ErrInvalidConfig, or nil.
func (c FinagleConfig) Validate() error {
	switch {
	case c.TTL < MinFinagleTTL || c.TTL > MaxFinagleTTL:
		return fmt.Errorf("%w: TTL %v not in [%v, %v]", ErrInvalidConfig, c.TTL, MinFinagleTTL, MaxFinagleTTL)
	case c.MinRetriesPerSec < 0 || c.MinRetriesPerSec > MaxFinagleMinRetriesPerSec:
		return fmt.Errorf("%w: MinRetriesPerSec %d not in [0, %d]", ErrInvalidConfig, c.MinRetriesPerSec, MaxFinagleMinRetriesPerSec)
	case !(c.PercentCanRetry == 0 || c.PercentCanRetry >= 1e-6 && c.PercentCanRetry <= MaxPercentCanRetry):
		return fmt.Errorf("%w: PercentCanRetry %v not 0 or in [1e-6, %v]", ErrInvalidConfig, c.PercentCanRetry, MaxPercentCanRetry)
	}
	return nil
}

// FinagleStats counts what a Finagle budget has done since it was made.
type FinagleStats struct {
	// Deposits is the number of Deposit calls (requests).
	Deposits uint64
	// Allowed is the number of retries allowed.
	Allowed uint64
	// Denied is the number of retries refused.
	Denied uint64
}

// Finagle is Finagle's retry budget (RetryBudget(ttl, minRetriesPerSec,
// percentCanRetry) over TokenBucket.newLeakyBucket): every request
// deposits, every retry withdraws, and both expire after about TTL. See
// the package documentation. It is not safe for concurrent use.
type Finagle struct {
	cfg        FinagleConfig
	deposit    int64 // units per request
	withdrawal int64 // units per retry
	reserve    int64 // units always available

	window time.Duration            // slice length, TTL/10 in whole ms
	cur    int64                    // the current slice's sum
	buf    [finagleSlices - 1]int64 // the previous slices' sums
	i      int                      // next slot of buf to overwrite
	old    time.Duration            // start of the current slice

	stats FinagleStats
}

// NewFinagle validates cfg and returns a Finagle budget whose first slice
// starts at instant now.
func NewFinagle(cfg FinagleConfig, now time.Duration) (*Finagle, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("budget.NewFinagle: %w", err)
	}
	f := &Finagle{cfg: cfg, deposit: 0, withdrawal: 1, old: now,
		window: time.Duration(cfg.TTL.Milliseconds()/finagleSlices) * time.Millisecond}
	if cfg.PercentCanRetry != 0 {
		// Java's (1000.0 / p).toInt truncates as Go's conversion does.
		f.deposit, f.withdrawal = finagleScale, int64(math.Trunc(finagleScale/cfg.PercentCanRetry))
	}
	f.reserve = int64(cfg.MinRetriesPerSec) * int64(cfg.TTL/time.Second) * f.withdrawal
	return f, nil
}

// Config returns the budget's configuration.
func (f *Finagle) Config() FinagleConfig { return f.cfg }

// Deposit credits one request at instant now. Call it once per request,
// before its first attempt, whatever the outcome (Finagle's
// RetryFilter.apply); retries do not deposit.
func (f *Finagle) Deposit(now time.Duration) {
	f.advance(now)
	f.stats.Deposits++
	f.cur += f.deposit
}

// TryWithdraw reports whether a retry may be made at instant now, and if
// so withdraws its cost: allowed while the deposits and withdrawals of the
// last TTL, plus the reserve, hold at least one retry's cost.
func (f *Finagle) TryWithdraw(now time.Duration) bool {
	if f.count(now) < f.withdrawal {
		f.stats.Denied++
		return false
	}
	f.cur -= f.withdrawal
	f.stats.Allowed++
	return true
}

// Balance returns the number of retries that could be made at instant
// now. Like Finagle's balance it moves the window to now, which can start
// a new slice.
func (f *Finagle) Balance(now time.Duration) int64 { return f.count(now) / f.withdrawal }

// Stats returns the budget's counters.
func (f *Finagle) Stats() FinagleStats { return f.stats }

// count returns the units available at instant now (WindowedAdder.sum
// plus the reserve); it may be negative.
func (f *Finagle) count(now time.Duration) int64 {
	f.advance(now)
	sum := f.cur
	for _, v := range f.buf {
		sum += v
	}
	return sum + f.reserve
}

// advance is WindowedAdder.expired: once a slice has lasted window, it is
// stored, the slices skipped since are cleared, and a new slice starts at
// now (not at the old start plus window). An earlier instant than the
// current slice's start does nothing.
func (f *Finagle) advance(now time.Duration) {
	if now-f.old < f.window {
		return
	}
	n := len(f.buf)
	f.buf[f.i], f.cur = f.cur, 0
	f.i = (f.i + 1) % n
	skip := min(int64((now-f.old)/f.window)-1, int64(n))
	for j := range int(skip) {
		f.buf[(f.i+j)%n] = 0
	}
	f.i = (f.i + int(skip)) % n
	f.old = now
}
