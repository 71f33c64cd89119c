package spans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// jsonInt is an integer written as a JSON number or as a string holding
// one (proto3's JSON mapping writes 64-bit integers as strings). set
// tells a present field from an absent one.
type jsonInt struct {
	v   int64
	set bool
}

// UnmarshalJSON accepts 123, "123", 1.5e9 (integral) and null.
func (n *jsonInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	s := string(b)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		n.v, n.set = v, true
		return nil
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		if u > math.MaxInt64 {
			return &json.UnmarshalTypeError{Value: "integer " + s + " (out of range)", Type: reflect.TypeFor[int64]()}
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f >= math.MaxInt64 || f <= math.MinInt64 {
		return &json.UnmarshalTypeError{Value: "non-integer " + truncate(s, 40), Type: reflect.TypeFor[int64]()}
	}
	n.v, n.set = int64(f), true
	return nil
}

// microsToNanos converts a time or duration in microseconds to
// nanoseconds, refusing values that overflow.
func microsToNanos(us int64) (int64, error) {
	if us > math.MaxInt64/1000 || us < math.MinInt64/1000 {
		return 0, fmt.Errorf("%d µs is out of range", us)
	}
	return us * 1000, nil
}

// addNanos returns a+b, refusing overflow.
func addNanos(a, b int64) (int64, error) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, fmt.Errorf("%d + %d ns overflows", a, b)
	}
	return s, nil
}

// microSpan turns a start and a duration in microseconds (Zipkin's and
// Jaeger's units) into start and end nanoseconds; what names the start's
// field in errors, id the span.
func microSpan(startUS, durUS int64, what, id string) (start, end int64, err error) {
	if start, err = microsToNanos(startUS); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", what, err)
	}
	d, err := microsToNanos(durUS)
	if err != nil {
		return 0, 0, fmt.Errorf("duration: %w", err)
	}
	if d < 0 {
		return 0, 0, fmt.Errorf("span %s has a negative duration (%d µs)", id, durUS)
	}
	if end, err = addNanos(start, d); err != nil {
		return 0, 0, err
	}
	return start, end, nil
}
