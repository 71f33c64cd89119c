package experiment

import (
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
)

const expTimeoutFile = `schema = 1

[experiment]
name = "exp-timeout"
duration = "100s"
seed = 7

[[client]]
name = "users"
target = "api"
rate = 40
timeout = TIMEOUT

[[service]]
name = "api"
workers = 64
service_time = { dist = "constant", mean = "100ms" }
`

func parseTimeout(t *testing.T, to string) (*Experiment, error) {
	t.Helper()
	return Parse("to.toml", []byte(strings.Replace(expTimeoutFile, "TIMEOUT", to, 1)))
}

// TestExponentialTimeout: timeout = { dist = "exponential", mean = M }
// draws each attempt's timeout from Exp(M). With 64 workers at 40/s and a
// constant 100 ms of work nothing queues, so an attempt times out exactly
// when its draw is below 100 ms: P = 1 - e^-1 = 0.632 for M = 100 ms. Over
// the n ≈ 4000 calls of 100 s the share's standard deviation is
// sqrt(0.632 · 0.368 / 4000) = 0.0076; the test allows 4 of them (0.03),
// which a correct model fails about once in 16 000 seeds. A fixed 100 ms
// timeout against 100 ms of work times out none or all, never 63 %.
func TestExponentialTimeout(t *testing.T) {
	e, err := parseTimeout(t, `{ dist = "exponential", mean = "100ms" }`)
	if err != nil {
		t.Fatal(err)
	}
	p := e.Model.Clients[0].Call
	if !p.TimeoutExponential || p.Timeout.Milliseconds() != 100 {
		t.Fatalf("timeout %v exponential %v, want an exponential of mean 100ms", p.Timeout, p.TimeoutExponential)
	}
	m, err := topology.New(e.Model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	c := res.Calls[0]
	share := float64(c.Timeouts) / float64(c.Attempts)
	want := 1 - math.Exp(-1)
	sd := math.Sqrt(want * (1 - want) / float64(c.Attempts))
	if c.Attempts < 3500 || math.Abs(share-want) > 4*sd {
		t.Errorf("%d of %d attempts timed out (%.4f), want %.4f ± %.4f", c.Timeouts, c.Attempts, share, want, 4*sd)
	}
	// The same file with a fixed timeout keeps its own parse: no flag.
	f, err := parseTimeout(t, `"100ms"`)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model.Clients[0].Call.TimeoutExponential {
		t.Error("a fixed timeout parsed as exponential")
	}
}

// Every other distribution, and a bad table, is refused with the key's
// position.
func TestExponentialTimeoutErrors(t *testing.T) {
	for _, tc := range []struct{ to, want string }{
		{`{ dist = "constant", mean = "100ms" }`, `a timeout's distribution must be "exponential", got "constant"`},
		{`{ dist = "lognormal", mean = "100ms", sigma = 1 }`, `must be "exponential"`},
		{`{ dist = "exponential" }`, `missing required key "mean"`},
		{`{ dist = "exponential", mean = "0s" }`, `mean`},
		{`{ dist = "exponential", mean = "1s", k = 2 }`, `k`},
		{`{ mean = "1s" }`, `missing required key "dist"`},
		{`3`, `expected a duration string`},
	} {
		_, err := parseTimeout(t, tc.to)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "timeout") {
			t.Errorf("timeout = %s: error %v, want one naming the timeout and saying %q", tc.to, err, tc.want)
		}
	}
}
