package topology

import (
	"math"
	"strings"
	"testing"
)

// TestChooseStepSplits: a choose step sends each request to one of its
// calls, by weight. Over n requests the first call's count is binomial
// (n, 0.8): it must lie within 5 standard deviations of 0.8 n, a bound a
// correct split misses with probability under 10^-6. The calls' totals
// add up to the requests (one call each), and the estimator's share is
// the weight's.
func TestChooseStepSplits(t *testing.T) {
	cfg := oneService(1000, 64, ms)
	cfg.Trace = TraceConfig{}
	cfg.Duration = 10e9
	leaf := func(name string) ServiceConfig {
		return ServiceConfig{Name: name, Workers: 64, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: constant(ms)}}}
	}
	cfg.Services = append(cfg.Services, leaf("v1"), leaf("v2"))
	choose := Step{Kind: ChooseStep, Calls: []CallConfig{{Service: "v1", Critical: true, Weight: 80}, {Service: "v2", Critical: true, Weight: 20}}}
	cfg.Services[0].Steps = append(cfg.Services[0].Steps, choose)
	if got := choose.Share(0); got != 0.8 {
		t.Errorf("Share(0) = %v, want 0.8", got)
	}
	res := mustRun(t, cfg)
	arrivals := map[string]float64{}
	for _, s := range res.Services {
		arrivals[s.Name] = float64(s.Arrivals)
	}
	n := arrivals["api"]
	if n < 9000 {
		t.Fatalf("%v requests, want about 10,000", n)
	}
	if arrivals["v1"]+arrivals["v2"] != n {
		t.Fatalf("v1 %v + v2 %v calls for %v requests: a choose step makes one call each", arrivals["v1"], arrivals["v2"], n)
	}
	if d, sd := math.Abs(arrivals["v1"]-0.8*n), math.Sqrt(n*0.8*0.2); d > 5*sd {
		t.Errorf("v1 got %v of %v calls, 0.8 expected within %.0f", arrivals["v1"], n, 5*sd)
	}
}

// TestChooseStepValidate: a choose step needs two calls and positive
// weights; a weight elsewhere is refused.
func TestChooseStepValidate(t *testing.T) {
	base := func(st Step) Config {
		cfg := oneService(10, 4, ms)
		cfg.Services = append(cfg.Services, ServiceConfig{Name: "b", Workers: 1, Steps: []Step{{Kind: WorkStep, Work: constant(ms)}}})
		cfg.Services[0].Steps = append(cfg.Services[0].Steps, st)
		return cfg
	}
	for _, tc := range []struct {
		name string
		st   Step
		want string
	}{
		{"one call", Step{Kind: ChooseStep, Calls: []CallConfig{{Service: "b", Weight: 1}}}, "wrong number of calls"},
		{"weight 0", Step{Kind: ChooseStep, Calls: []CallConfig{{Service: "b", Weight: 1}, {Service: "b"}}}, "weight"},
		{"weight on a call step", Step{Kind: CallStep, Calls: []CallConfig{{Service: "b", Weight: 3}}}, "choose step"},
	} {
		cfg := base(tc.st)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
