package budget

import (
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Receipt records what a retry paid a Quota, so that a success of that
// retry can hand it back (the AWS quota refunds a retry's cost). It is a
// byte so that a caller can keep it on each call for nothing. The zero
// Receipt is that of a first attempt, which paid nothing.
type Receipt uint8

// The receipts the kinds hand out.
const (
	// NoReceipt: a first attempt, or nothing was paid.
	NoReceipt Receipt = iota
	// PaidToken: one token of a Bucket or a PerCall budget.
	PaidToken
	// PaidRetryCost: the AWS quota's RetryCost.
	PaidRetryCost
	// PaidTimeoutCost: the AWS quota's TimeoutCost (the failed attempt
	// timed out).
	PaidTimeoutCost
)

// Quota is the interface every token kind of retry budget offers to the
// code that runs calls (the topology model, package wall): Bucket, AWS
// and PerCall. Instants are explicit, as everywhere in package policies;
// no method allocates.
//
// The caller reports each call's start (CallStarted, before its first
// attempt), asks Withdraw for each retry (and each hedge) the retry policy
// has allowed, keeps the Receipt of the retry in flight, and reports each
// successful attempt to Deposit with whether it was a retry and the
// Receipt it paid. Failures are reported only through Withdraw's argument.
type Quota interface {
	// CallStarted counts a call about to make its first attempt at now.
	CallStarted(now time.Duration)
	// Withdraw reports whether a retry may be made at now after an
	// attempt that failed with outcome failed (policies.Success for a
	// hedge, which follows no failure), and if so takes its cost and
	// returns the receipt.
	Withdraw(now time.Duration, failed policies.Outcome) (ok bool, paid Receipt)
	// Deposit reports a successful attempt at now: a first attempt
	// (retry false, paid NoReceipt) or a retry that paid paid.
	Deposit(now time.Duration, retry bool, paid Receipt)
	// Tokens returns the tokens available for retries, in the kind's
	// units.
	Tokens() float64
}

var (
	_ Quota = (*Bucket)(nil)
	_ Quota = (*AWS)(nil)
	_ Quota = (*PerCall)(nil)
)

// CallStarted does nothing: a Bucket earns on successes.
func (b *Bucket) CallStarted(time.Duration) {}

// Withdraw is TryRetry; the outcome does not change the price.
func (b *Bucket) Withdraw(now time.Duration, _ policies.Outcome) (bool, Receipt) {
	if b.TryRetry(now) {
		return true, PaidToken
	}
	return false, NoReceipt
}

// Deposit is RecordSuccess, except that with Earn EarnFirstAttempt a
// successful retry deposits nothing (it still moves the clock and counts
// in Stats.Successes).
func (b *Bucket) Deposit(now time.Duration, retry bool, _ Receipt) {
	if retry && b.cfg.Earn == EarnFirstAttempt {
		b.advance(now)
		b.stats.Successes++
		return
	}
	b.RecordSuccess(now)
}

// QuotaConfig selects and configures one token kind of retry budget: the
// one of Bucket, AWS and PerCall that is not nil.
type QuotaConfig struct {
	Bucket  *Config
	AWS     *AWSConfig
	PerCall *PerCallConfig
}

// NewQuota builds the kind c selects; it returns nil and no error when c
// selects none, and an error wrapping ErrInvalidConfig when it selects
// more than one or that kind's config is invalid.
func NewQuota(c QuotaConfig) (Quota, error) {
	n := 0
	for _, set := range [...]bool{c.Bucket != nil, c.AWS != nil, c.PerCall != nil} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return nil, errOneKind
	case c.Bucket != nil:
		return New(*c.Bucket)
	case c.AWS != nil:
		return NewAWS(*c.AWS)
	case c.PerCall != nil:
		return NewPerCall(*c.PerCall)
	}
	return nil, nil
}

var errOneKind = wrapInvalid("a quota has one kind: bucket, aws or per-call")
