package lint

import (
	"errors"
	"math"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// runScenario runs one scenario against target on cfg (already a
// stressBase copy) and measures its verdict and the amplification at
// target during the fault.
func runScenario(g *runner.Meter, cfg topology.Config, sc scenario, target string) (ScenarioResult, error) {
	faults := sc.faults(&cfg, target)
	cfg.Faults = faults
	r := ScenarioResult{Scenario: sc.name, What: sc.what, Target: target}
	res, err := g.Run(cfg, runner.Options{MaxEvents: SimMaxEvents})
	if errors.Is(err, runner.ErrRunEvents) {
		r.Verdict = VerdictBudget
		r.Reason = "stopped after 2e7 events: the load is too high for --simulate's quick runs; run the experiment with [[fault]]s instead"
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if len(res.Faults) > 0 {
		rec := res.Faults[0].Recovery
		r.Verdict, r.Reason = rec.Verdict, rec.Reason
		if rec.Verdict == topology.VerdictRecovered || rec.Verdict == topology.VerdictUnaffected {
			r.RecoveryTime = rec.Time.String()
		}
	}
	allDown := sc.name == "instance-crash" && instancesOf(&cfg, target) <= faults[0].Count
	r.Amplification = faultAmplification(res, &cfg, target, faults[0].Start, faults[0].End, allDown)
	return r, nil
}

// faultAmplification is the calls target received per user request
// sent, over the time-series intervals inside [start, end), rounded to
// 0.01. The calls are the larger of target's arrivals and the attempts
// its callers sent to it (every call site has an attempts series):
// arrivals miss the attempts refused because no instance was up. With
// every instance down (allDown), the refusals are the attempts, and are
// added to arrivals.
func faultAmplification(res *topology.Result, cfg *topology.Config, target string, start, end time.Duration, allDown bool) float64 {
	ts := res.Series
	var sites []*metrics.Column
	for _, c := range ts.Columns() {
		if c.Metric() == topology.SiteAttempts.Name && strings.Contains(c.Entity(), "->"+target+"/") {
			sites = append(sites, c)
		}
	}
	arr := ts.Find(target, topology.ServiceArrivals.Name)
	rej := ts.Find(target, topology.ServiceRejected.Name)
	var arrivals, attempts, users float64
	for i := 0; i < ts.Len(); i++ {
		if time.Duration(ts.Start(i)) < start || time.Duration(ts.End(i)) > end {
			continue
		}
		if arr != nil {
			arrivals += arr.Value(i)
		}
		if allDown && rej != nil {
			arrivals += rej.Value(i)
		}
		for _, c := range sites {
			attempts += c.Value(i)
		}
		for _, c := range cfg.Clients {
			if col := ts.Find(c.Name, topology.ClientSent.Name); col != nil {
				users += col.Value(i)
			}
		}
	}
	if users == 0 {
		return 0
	}
	return math.Round(max(arrivals, attempts)/users*100) / 100
}

// attachMeasured puts, next to each RS007 finding and each path, the
// largest amplification measured at its bottom service in its variant.
func attachMeasured(rep *Report) {
	best := func(variant, svc string) *Measured {
		var m *Measured
		for _, s := range rep.Scenarios {
			if s.Variant == variant && s.Target == svc && (m == nil || s.Amplification > m.Amplification) {
				m = &Measured{Scenario: s.Scenario, Service: svc, Amplification: s.Amplification, Verdict: s.Verdict}
			}
		}
		return m
	}
	for i := range rep.Findings {
		if f := &rep.Findings[i]; f.Rule == "RS007" && f.bottom != "" {
			f.Measured = best(f.Variant, f.bottom)
		}
	}
	for i := range rep.Paths {
		p := &rep.Paths[i]
		p.Measured = best(p.Variant, p.Hops[len(p.Hops)-1])
	}
}

// instancesOf returns a service's instances (at least 1).
func instancesOf(cfg *topology.Config, svc string) int {
	for _, s := range cfg.Services {
		if s.Name == svc {
			return max(s.Instances, 1)
		}
	}
	return 1
}
