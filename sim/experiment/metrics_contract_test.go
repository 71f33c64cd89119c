package experiment

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/headline"
)

// contractBase is a valid experiment without a fault; withFault adds one.
const contractBase = `schema = 1
[experiment]
name = "c"
duration = "10m"
[[client]]
name = "users"
target = "api"
rate = 10
[[service]]
name = "api"
workers = 4
service_time = { dist = "exponential", mean = "10ms" }
`

const withFault = `[[fault]]
kind = "latency"
target = "api"
start = "1m"
end = "2m"
multiply = 5
`

// TestMetricNamesAreTheContract: the names a file may give [sweep] metric
// and [[expect]] metric are the contract's (sim/headline), in its order,
// which the loader's "expected one of" message lists.
func TestMetricNamesAreTheContract(t *testing.T) {
	want := headline.Names(headline.Keys())
	if !slices.Equal(SweepMetrics, want) {
		t.Errorf("SweepMetrics %q,\nthe contract %q", SweepMetrics, want)
	}
	if !slices.Equal(ExpectMetrics, want) {
		t.Errorf("ExpectMetrics %q,\nthe contract %q", ExpectMetrics, want)
	}
}

// TestExpectChecksFollowTheContract: every headline metric loads into its
// key, in an expectation and a sweep; a min above 1 is refused exactly
// for the contract's ratios, and an expectation or a sweep without a
// fault exactly for the metrics it says are judged after one.
func TestExpectChecksFollowTheContract(t *testing.T) {
	for _, k := range headline.Keys() {
		d := k.Def()
		t.Run(d.Name, func(t *testing.T) {
			src := contractBase + withFault + fmt.Sprintf("[[expect]]\nmetric = %q\nmax = 1e9\n[sweep]\nmetric = %q\nx = { path = \"client.users.rate\", values = [10, 20] }\n", d.Name, d.Name)
			e, err := Parse("c.toml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if e.Expects[0].Metric != k || e.Sweep.Metric != k {
				t.Errorf("loaded as %v and %v, want %v", e.Expects[0].Metric, e.Sweep.Metric, k)
			}

			_, err = Parse("c.toml", []byte(contractBase+withFault+fmt.Sprintf("[[expect]]\nmetric = %q\nmin = 2\n", d.Name)))
			if refused := err != nil && strings.Contains(err.Error(), "is at most 1"); refused != d.Ratio {
				t.Errorf("min = 2: refused as above a ratio %v, the contract's Ratio %v (%v)", refused, d.Ratio, err)
			}

			_, err = Parse("c.toml", []byte(contractBase+fmt.Sprintf("[[expect]]\nmetric = %q\nmin = 0\n", d.Name)))
			if refused := err != nil && strings.Contains(err.Error(), "is judged after a [[fault]]"); refused != d.AfterFault {
				t.Errorf("expectation without a fault: refused %v, the contract's AfterFault %v (%v)", refused, d.AfterFault, err)
			}
			_, err = Parse("c.toml", []byte(contractBase+fmt.Sprintf("[sweep]\nmetric = %q\nx = { path = \"client.users.rate\", values = [10, 20] }\n", d.Name)))
			if refused := err != nil && strings.Contains(err.Error(), "is judged after a [[fault]]"); refused != d.AfterFault {
				t.Errorf("sweep without a fault: refused %v, the contract's AfterFault %v (%v)", refused, d.AfterFault, err)
			}
		})
	}
}

// TestSweepMetricDefault: a [sweep] without metric maps the locked-in
// probability.
func TestSweepMetricDefault(t *testing.T) {
	e, err := Parse("c.toml", []byte(contractBase+withFault+"[sweep]\nx = { path = \"client.users.rate\", values = [10, 20] }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e.Sweep.Metric != headline.LockedInProbability {
		t.Errorf("default metric %v, want %v", e.Sweep.Metric, headline.LockedInProbability)
	}
}
