package retry

import (
	"fmt"
	"time"
)

// Backoff selects how the delay before a retry grows. The variants and their
// names follow Marc Brooker, "Exponential Backoff and Jitter", AWS
// Architecture Blog (2015); see the package documentation for the formulas.
type Backoff uint8

const (
	// BackoffNone retries at once. Only for experiments: a retry without a
	// delay is a denial of service of one's own dependency.
	BackoffNone Backoff = iota
	// BackoffConstant waits Base before every retry. Clients refused in the
	// same second all come back in the same second.
	BackoffConstant
	// BackoffExponential waits min(Cap, Base*2^n) before retry n.
	BackoffExponential
	// BackoffFullJitter waits uniform(0, min(Cap, Base*2^n)). The default.
	BackoffFullJitter
	// BackoffEqualJitter waits e/2 + uniform(0, e/2), e = min(Cap, Base*2^n).
	BackoffEqualJitter
	// BackoffDecorrelatedJitter waits min(Cap, uniform(Base, 3*prev)), where
	// prev is the previous delay (Base before the first retry).
	BackoffDecorrelatedJitter

	numBackoffs
)

var backoffNames = [numBackoffs]string{
	"none", "constant", "exponential", "full_jitter", "equal_jitter", "decorrelated_jitter",
}

// String returns the variant's snake_case name, as used in experiment files.
func (b Backoff) String() string {
	if b < numBackoffs {
		return backoffNames[b]
	}
	return fmt.Sprintf("Backoff(%d)", uint8(b))
}

// ParseBackoff is the inverse of String. It reports false for an unknown name.
func ParseBackoff(s string) (Backoff, bool) {
	for i, n := range backoffNames {
		if n == s {
			return Backoff(i), true
		}
	}
	return 0, false
}

// expo returns min(cap, base*2^n) without overflow, for base <= cap.
func expo(base, cap time.Duration, n int) time.Duration {
	if n >= 62 || base > cap>>uint(n) {
		return cap
	}
	return base << uint(n)
}

// uniform returns a + u*(b-a) for a <= b and u in [0, 1).
func uniform(a, b time.Duration, u float64) time.Duration {
	return a + time.Duration(u*float64(b-a))
}

// clampU maps u into [0, 1): NaN and negatives to 0, values >= 1 to the
// largest float64 below 1.
func clampU(u float64) float64 {
	switch {
	case u >= 0 && u < 1:
		return u
	case u >= 1:
		return 0x1.fffffffffffffp-1
	default: // negative or NaN
		return 0
	}
}
