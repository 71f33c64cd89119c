package topology

import (
	"math"
	"testing"
	"time"
)

// TestOpenRequestsMatchesModel: OpenRequests is the expected number of
// requests the model sends. Arrivals are a Poisson process, so the count
// a run sends is Poisson with that mean; each case must fall within 5
// standard deviations (sqrt of the mean), a bound a correct integral
// misses with probability under 10^-6 per case. The exact values are
// checked by hand too.
func TestOpenRequestsMatchesModel(t *testing.T) {
	burst := []RatePoint{{0, 200}, {500 * ms, 2000}, {600 * ms, 100}}
	load := []FaultConfig{{Kind: LoadFault, Target: "users", Instance: -1, Start: time.Second, End: 1200 * ms, Multiply: 3}}
	cases := []struct {
		name     string
		schedule []RatePoint
		linear   bool
		faults   []FaultConfig
		want     float64 // by hand, over the 2 s run
	}{
		{"constant", nil, false, nil, 300 * 2},
		{"steps", burst, false, nil, 200*0.5 + 2000*0.1 + 100*1.4},
		{"linear", burst, true, nil, (200+2000)/2*0.5 + (2000+100)/2*0.1 + 100*1.4},
		{"load fault", nil, false, load, 300*1.8 + 900*0.2},
		{"steps and fault", burst, false, load, 200*0.5 + 2000*0.1 + 100*1.2 + 300*0.2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := oneService(300, 64, ms)
			cfg.Trace = TraceConfig{}
			cfg.Clients[0].Schedule, cfg.Clients[0].Linear = tc.schedule, tc.linear
			cfg.Faults = tc.faults
			got := cfg.Clients[0].OpenRequests(cfg.Faults, nil, cfg.Duration)
			if math.Abs(got-tc.want) > 1e-9*tc.want {
				t.Fatalf("OpenRequests = %v, want %v", got, tc.want)
			}
			res := mustRun(t, cfg)
			sent := float64(res.Clients[0].Sent)
			if d := math.Abs(sent - got); d > 5*math.Sqrt(got) {
				t.Errorf("the model sent %v requests, OpenRequests expects %v (more than 5 sigma = %.0f apart)", sent, got, 5*math.Sqrt(got))
			}
		})
	}
}
