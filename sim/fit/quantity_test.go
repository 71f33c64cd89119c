package fit

import (
	"math"
	"testing"
)

func TestHistogramID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`x_bucket{le="+Inf",service="db"}`, `x{service="db"}`},
		{`x_bucket{a="1",le="0.5"}`, `x{a="1"}`},
		{`x_bucket{le="1"}`, `x`},
		{`x_sum{service="a,b=\"c\""}`, `x{service="a,b=\"c\""}`},
		{`x_count`, `x`},
		{`requests_total{service="db"}`, `requests_total{service="db"}`},
	} {
		if got := histogramID(c.in); got != c.want {
			t.Errorf("histogramID(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestBucketName(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 0.1, "≤100ms"}, {0.1, 0.25, "≤250ms"}, {0, 0.00047, "≤0.47ms"}, {1, 2.5, "≤2.5s"},
		{0, 0.0112, "≤11ms"}, {60, math.Inf(1), ">60s"}, {0, 10, "≤10s"},
	} {
		if got := bucketName(c.lo, c.hi); got != c.want {
			t.Errorf("bucketName(%g, %g) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
