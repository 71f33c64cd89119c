package fit

import "testing"

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
