package promtext

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseFloat parses a sample value as Prometheus does: Go's float
// syntax, with NaN and ±Inf, but no hexadecimal or underscores.
func parseFloat(s string) (float64, error) {
	if strings.ContainsAny(s, "pPxX_") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseFloat(s, 64)
}

// timestamp parses a timestamp token into milliseconds: an integer
// count of milliseconds, or in OpenMetrics a (fractional) count of
// seconds.
func (l *lexer) timestamp(tok string) (int64, error) {
	if l.format != formatOpenMetrics {
		t, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid timestamp %q (integer milliseconds)", tok)
		}
		return t, nil
	}
	f, err := parseFloat(tok)
	ms := math.Round(f * 1000)
	if err != nil || math.IsNaN(ms) || ms < math.MinInt64 || ms >= math.MaxInt64 {
		return 0, fmt.Errorf("invalid timestamp %q (seconds)", tok)
	}
	return int64(ms), nil
}
