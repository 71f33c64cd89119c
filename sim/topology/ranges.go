package topology

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Range is the set of values a numeric setting accepts: [Lo, Hi], with
// either end open, and 0 besides when Zero is set (0 then means "off").
// The ranges of the settings Validate checks are in the table of
// settings.go; package experiment checks a file's keys against the same
// values.
type Range struct {
	Lo, Hi         float64
	OpenLo, OpenHi bool
	Zero           bool
	Int            bool   // only integers
	Unit           string // what the number counts, for messages
}

// Contains reports whether x is accepted. NaN never is.
func (g Range) Contains(x float64) bool {
	if math.IsNaN(x) {
		return false
	}
	if g.Zero && x == 0 {
		return true
	}
	lo := x > g.Lo || !g.OpenLo && x == g.Lo
	hi := x < g.Hi || !g.OpenHi && x == g.Hi
	return lo && hi
}

// String writes the range as docs/experiment-format.md does: "in (0, 100]",
// "`0` or in [10^-6, 1000]", and for integers "1 to 2^20".
func (g Range) String() string {
	if g.Int && !g.OpenLo && !g.OpenHi && !g.Zero {
		return docNumber(g.Lo) + " to " + docNumber(g.Hi)
	}
	return strings.Replace(g.Interval(), "0 or", "`0` or", 1)
}

// Interval writes the range in interval notation, for messages:
// "in (0, 10^6]", "0 or in [10^-6, 1000]".
func (g Range) Interval() string {
	lb, rb := "[", "]"
	if g.OpenLo {
		lb = "("
	}
	if g.OpenHi {
		rb = ")"
	}
	s := fmt.Sprintf("in %s%s, %s%s", lb, docNumber(g.Lo), docNumber(g.Hi), rb)
	if g.Zero {
		s = "0 or " + s
	}
	return s
}

// Refusal is the message for a value x outside the range: "must be in
// (0, 10^6] (factor on local work), got 0". The file reader and Validate
// both write it.
func (g Range) Refusal(x float64) string {
	return fmt.Sprintf("must be %s (%s), got %g", g.Interval(), g.Unit, x)
}

// docNumber writes large and small powers of ten as 10^k, large powers of
// two as 2^k, and other numbers plainly.
func docNumber(x float64) string {
	if x != 0 {
		k := math.Round(math.Log10(math.Abs(x)))
		if math.Pow(10, k) == math.Abs(x) && (k >= 4 || k <= -3) {
			return "10^" + strconv.Itoa(int(k))
		}
		if k2 := math.Log2(x); k2 == math.Round(k2) && k2 >= 16 {
			return "2^" + strconv.Itoa(int(k2))
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
