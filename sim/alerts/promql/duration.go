package promql

import (
	"fmt"
	"strconv"
	"time"
)

// maxDuration bounds a duration in an expression or a rules file (10
// years): longer windows only cost.
const maxDuration = 10 * 365 * 24 * time.Hour

// ParseDuration reads a Prometheus duration: one or more of a number and
// a unit (y, w, d, h, m, s, ms), largest unit first, as 1h30m or 500ms.
func ParseDuration(s string) (time.Duration, error) {
	units := []struct {
		suffix string
		d      time.Duration
	}{{"y", 365 * 24 * time.Hour}, {"w", 7 * 24 * time.Hour}, {"d", 24 * time.Hour},
		{"h", time.Hour}, {"ms", time.Millisecond}, {"m", time.Minute}, {"s", time.Second}}
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	if s == "0" {
		return 0, nil
	}
	var total time.Duration
	last := -1
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i > 12 {
			return 0, fmt.Errorf("not a valid duration string: %q", s)
		}
		n, _ := strconv.ParseInt(rest[:i], 10, 64)
		rest = rest[i:]
		found := false
		for k, u := range units {
			if len(rest) >= len(u.suffix) && rest[:len(u.suffix)] == u.suffix {
				if u.suffix == "m" && len(rest) > 1 && rest[1] == 's' {
					continue
				}
				if k <= last {
					return 0, fmt.Errorf("not a valid duration string: %q", s)
				}
				last = k
				if time.Duration(n) > maxDuration/u.d {
					return 0, fmt.Errorf("duration %q is longer than %v", s, maxDuration)
				}
				total += time.Duration(n) * u.d
				rest = rest[len(u.suffix):]
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("not a valid duration string: %q", s)
		}
	}
	if total > maxDuration {
		return 0, fmt.Errorf("duration %q is longer than %v", s, maxDuration)
	}
	return total, nil
}
