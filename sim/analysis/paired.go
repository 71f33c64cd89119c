package analysis

import (
	"errors"
	"fmt"
	"math"
)

// ErrLengthMismatch is returned (wrapped) by Paired when base and variant
// differ in length.
var ErrLengthMismatch = errors.New("analysis: samples differ in length")

// ErrNonFinite is returned (wrapped) by Paired when a value or a
// difference is NaN or infinite.
var ErrNonFinite = errors.New("analysis: non-finite value")

// Paired summarizes the paired differences variant[i] - base[i], in the
// metric's unit. It is the comparison for common random numbers: run i of
// the base and run i of the variant share seed i, so their noise largely
// cancels and the interval on the difference is much narrower than the
// two separate intervals suggest. The result is the paired t-test's
// (Student 1908; R: t.test(variant, base, paired = TRUE)):
// CI95.ExcludesZero reports a difference at the 5 % level, and the sign of
// Mean says which way.
//
// Paired returns an error wrapping ErrLengthMismatch when the lengths
// differ, and one wrapping ErrNonFinite when a value or a difference is
// NaN or ±Inf; then the Summary is the zero value. Empty or single pairs
// follow Summarize's conventions. Paired does not allocate unless it
// returns an error.
func Paired(base, variant []float64) (Summary, error) {
	if len(base) != len(variant) {
		return Summary{}, fmt.Errorf("analysis: Paired: len(base) = %d, len(variant) = %d: %w",
			len(base), len(variant), ErrLengthMismatch)
	}
	for i := range base {
		b, v := base[i], variant[i]
		if !finite(b) || !finite(v) || !finite(v-b) {
			return Summary{}, fmt.Errorf("analysis: Paired: pair %d: base %v, variant %v, difference %v: %w",
				i, b, v, v-b, ErrNonFinite)
		}
	}
	return summarize(variant, base), nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
