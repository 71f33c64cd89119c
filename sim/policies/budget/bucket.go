package budget

import (
	"fmt"
	"time"
)

// Bucket is a retry budget as a token bucket (the RetryBudget class of
// «Устойчивость: circuit breaker, retry, bulkhead, backpressure,
// деградация», "Resilience: ...", section 3.3): successes deposit Ratio
// tokens, retries withdraw one, and a reserve refilled at MinRetriesPerSec
// (Finagle's; the article's class takes min_per_sec but never uses it)
// keeps a trickle of retries possible when the bucket is empty. See the
// package documentation. A Bucket is not safe for concurrent use.
type Bucket struct {
	cfg Config

	deposit  int64 // micro-tokens per success
	capacity int64 // micro-tokens
	tokens   int64 // micro-tokens, in [0, capacity]

	rate    uint64        // reserve refill, micro-tokens per second
	burst   int64         // reserve size, micro-tokens
	reserve int64         // micro-tokens, in [0, burst]
	rem     uint64        // refill remainder, micro-token-nanoseconds, < 1e9
	fill    time.Duration // time to refill the reserve from empty
	last    time.Duration // latest instant seen

	stats Stats
}

// Stats counts what a Bucket has done since it was made.
type Stats struct {
	// Successes is the number of RecordSuccess calls.
	Successes uint64
	// Allowed is the number of retries allowed, from the bucket or the
	// reserve.
	Allowed uint64
	// FromReserve is the part of Allowed that the reserve paid for.
	FromReserve uint64
	// Denied is the number of retries refused.
	Denied uint64
}

// New validates cfg and returns a full Bucket.
func New(cfg Config) (*Bucket, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("budget.New: %w", err)
	}
	b := &Bucket{
		cfg:      cfg,
		deposit:  micro(cfg.Ratio),
		capacity: micro(cfg.Capacity),
		rate:     uint64(micro(cfg.MinRetriesPerSec)),
	}
	b.tokens = b.capacity
	if b.rate > 0 {
		b.burst = max(int64(b.rate), scale)
		b.reserve = b.burst
		// Ceil(burst * 1e9 / rate) nanoseconds; burst*1e9 <= 1e19 fits uint64.
		b.fill = time.Duration((uint64(b.burst)*uint64(time.Second) + b.rate - 1) / b.rate)
	}
	return b, nil
}

// Config returns the bucket's configuration.
func (b *Bucket) Config() Config { return b.cfg }

// RecordSuccess deposits Ratio tokens for one successful request at instant
// now, up to Capacity. Count every success of the guarded calls, first
// attempts and retries alike, and nothing else.
func (b *Bucket) RecordSuccess(now time.Duration) {
	b.advance(now)
	b.stats.Successes++
	b.tokens = min(b.tokens+b.deposit, b.capacity)
}

// TryRetry reports whether a retry may be made at instant now, and if so
// withdraws one token for it: from the bucket when it holds at least one
// token, otherwise from the reserve.
func (b *Bucket) TryRetry(now time.Duration) bool {
	b.advance(now)
	switch {
	case b.tokens >= scale:
		b.tokens -= scale
	case b.reserve >= scale:
		b.reserve -= scale
		b.stats.FromReserve++
	default:
		b.stats.Denied++
		return false
	}
	b.stats.Allowed++
	return true
}

// Tokens returns the tokens in the bucket, in [0, Capacity]; the reserve is
// not included.
func (b *Bucket) Tokens() float64 { return float64(b.tokens) / scale }

// Reserve returns the reserve's tokens at instant now, in
// [0, max(MinRetriesPerSec, 1)], or 0 if the reserve is disabled. It does
// not change the bucket.
func (b *Bucket) Reserve(now time.Duration) float64 {
	r := b.reserve
	if now > b.last {
		r, _ = b.refilled(now)
	}
	return float64(r) / scale
}

// Stats returns the bucket's counters.
func (b *Bucket) Stats() Stats { return b.stats }

// advance refills the reserve for the time elapsed since the latest instant
// seen, and makes now the latest instant seen. An instant earlier than that
// is treated as equal to it.
func (b *Bucket) advance(now time.Duration) {
	if now <= b.last {
		return
	}
	b.reserve, b.rem = b.refilled(now)
	b.last = now
}

// refilled returns the reserve and the refill remainder at instant now >
// b.last, without changing b.
func (b *Bucket) refilled(now time.Duration) (reserve int64, rem uint64) {
	elapsed := now - b.last
	if b.rate == 0 || b.reserve == b.burst || elapsed >= b.fill {
		return b.burst, 0
	}
	// elapsed < fill, so elapsed*rate < burst*1e9 + rate <= 1e19 + 1e10 fits.
	p := uint64(elapsed)*b.rate + b.rem
	reserve = b.reserve + int64(p/uint64(time.Second))
	if reserve >= b.burst {
		return b.burst, 0
	}
	return reserve, p % uint64(time.Second)
}
