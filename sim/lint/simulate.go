package lint

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// The standard stress scenarios' timeline: each run lasts SimDuration,
// the first SimWarmup is not measured, and the fault is active from
// SimFaultStart for its scenario's length. The baseline is measured
// before the fault, the verdict at the end (docs/lint.md).
const (
	SimDuration   = 40 * time.Second
	SimWarmup     = 2 * time.Second
	SimFaultStart = 10 * time.Second
)

// SimMaxEvents bounds one scenario run, so that --simulate finishes in
// seconds; a run that needs more is stopped and reported as "budget".
const SimMaxEvents = 20_000_000

// VerdictBudget is a scenario's verdict when its run was stopped by
// SimMaxEvents.
const VerdictBudget = "budget"

// scenario is one standard stress scenario: a fault built for the
// dependency chosen as target.
type scenario struct {
	name, what string
	faults     func(cfg *topology.Config, target string) []topology.FaultConfig
}

// scenarios are the standard stress scenarios, in report order.
var scenarios = []scenario{
	{"slow-x10", "the dependency's service time x10 for 5s", func(_ *topology.Config, t string) []topology.FaultConfig {
		return []topology.FaultConfig{{Kind: topology.LatencyFault, Target: t, Instance: -1, Start: SimFaultStart, End: SimFaultStart + 5*time.Second, Multiply: 10}}
	}},
	{"latency-spike", "+1s on every piece of the dependency's work for 2s", func(_ *topology.Config, t string) []topology.FaultConfig {
		return []topology.FaultConfig{{Kind: topology.LatencyFault, Target: t, Instance: -1, Start: SimFaultStart, End: SimFaultStart + 2*time.Second, Multiply: 1, Add: time.Second}}
	}},
	{"instance-crash", "one instance of the dependency down for 5s", func(_ *topology.Config, t string) []topology.FaultConfig {
		return []topology.FaultConfig{{Kind: topology.CrashFault, Target: t, Instance: -1, Start: SimFaultStart, End: SimFaultStart + 5*time.Second, Count: 1}}
	}},
	{"surge-150", "every client's rate x1.5 for 5s", func(cfg *topology.Config, _ string) []topology.FaultConfig {
		var out []topology.FaultConfig
		for _, c := range cfg.Clients {
			out = append(out, topology.FaultConfig{Kind: topology.LoadFault, Target: c.Name, Instance: -1, Start: SimFaultStart, End: SimFaultStart + 5*time.Second, Multiply: 1.5})
		}
		return out
	}},
}

// ScenarioResult is one stress scenario run on one variant.
type ScenarioResult struct {
	Variant  string `json:"variant"`
	Scenario string `json:"scenario"`
	// What describes the fault; Target is the dependency it hits (the
	// bottom of the most amplified call path).
	What   string `json:"what"`
	Target string `json:"target"`
	// Verdict is topology's recovery verdict (recovered, locked_in,
	// relapsed, unaffected, no_baseline, undetermined) or "budget";
	// Reason says why in words.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// RecoveryTime is how long after the fault ended the system was back
	// (recovered or unaffected only), as a duration string.
	RecoveryTime string `json:"recovery_time,omitempty"`
	// Amplification is the calls Target received per user request sent
	// while the fault was active: the measured counterpart of a path's
	// worst-case amplification.
	Amplification float64 `json:"amplification"`
}

// Measured is the largest amplification measured at a finding's (or
// path's) bottom service over the scenarios of its variant.
type Measured struct {
	Scenario      string  `json:"scenario"`
	Service       string  `json:"service"`
	Amplification float64 `json:"amplification"`
	Verdict       string  `json:"verdict"`
}

// Simulate runs the standard stress scenarios against every variant the
// report covers (variant as for Check) and records their results in the
// report, and the largest measured amplification next to each RS007
// finding and each call path. Deterministic: the experiment's seed, no
// wall clock. Call it before MapToSources.
//
// The runs go through the runner under b, all together: the whole plan
// (every variant's scenarios, each counted at most SimMaxEvents) is
// checked before any runs, ctx and b's run-time limits stop them.
func Simulate(ctx context.Context, e *experiment.Experiment, rep *Report, variant string, b runner.Budget) error {
	return SimulateTarget(ctx, e, rep, variant, "", b)
}

// ErrUnknownTarget marks a SimulateTarget target that names no service.
var ErrUnknownTarget = errors.New("no such service")

// SimulateTarget is Simulate with the scenarios aimed at the service
// target instead of each variant's most amplified dependency ("" keeps
// that choice): the dependency a user asks about. A target that no
// service of a variant has is an error.
func SimulateTarget(ctx context.Context, e *experiment.Experiment, rep *Report, variant, target string, b runner.Budget) error {
	names := []string{variant}
	if variant == AllVariants {
		names = e.VariantNames()
	}
	models := make([]topology.Config, len(names))
	var plan []runner.PlannedRun
	for i, v := range names {
		cfg, err := e.VariantModel(v)
		if err != nil {
			return fmt.Errorf("simulate %s: %w", e.File, err)
		}
		models[i] = cfg
		if target != "" && !hasService(&cfg, target) {
			return fmt.Errorf("simulate %s: --target %q: %w in %s", e.File, target, ErrUnknownTarget, labelOf(v))
		}
		target := target
		if target == "" {
			if target = stressTarget(cfg); target == "" {
				continue // no call path: no scenario runs
			}
		}
		base := stressBase(cfg)
		for _, sc := range scenarios {
			m := base
			m.Faults = sc.faults(&m, target)
			plan = append(plan, runner.PlannedRun{Model: m, Times: 1, OnDisk: true, MaxEvents: SimMaxEvents})
		}
	}
	if err := b.Check(plan); err != nil {
		return fmt.Errorf("simulate %s: %w", e.File, err)
	}
	g := runner.NewMeter(ctx, b, models...)
	for i, v := range names {
		results, err := simulateModel(g, models[i], labelOf(v), target)
		if err != nil {
			return fmt.Errorf("simulate %s [%s]: %w", e.File, labelOf(v), err)
		}
		rep.Scenarios = append(rep.Scenarios, results...)
	}
	attachMeasured(rep)
	return nil
}

// stressTarget is the dependency the scenarios hit: the bottom of cfg's
// most amplified call path, or "" when it has none.
func stressTarget(cfg topology.Config) string {
	w := walk(&cfg, "")
	if len(w.paths) == 0 {
		return ""
	}
	best := w.paths[0]
	for _, p := range w.paths[1:] {
		if p.Amplification > best.Amplification {
			best = p
		}
	}
	return best.Hops[len(best.Hops)-1]
}

// labelOf is a variant's name in reports: "base" for the base.
func labelOf(v string) string {
	if v == "" {
		return "base"
	}
	return v
}

// hasService reports whether cfg has a service named name.
func hasService(cfg *topology.Config, name string) bool {
	for i := range cfg.Services {
		if cfg.Services[i].Name == name {
			return true
		}
	}
	return false
}

// simulateModel runs every scenario on a copy of cfg under g, aimed at
// target, or at its most amplified dependency when target is "".
func simulateModel(g *runner.Meter, cfg topology.Config, variant, target string) ([]ScenarioResult, error) {
	if target == "" {
		if target = stressTarget(cfg); target == "" {
			return nil, nil
		}
	}
	var out []ScenarioResult
	for _, sc := range scenarios {
		r, err := runScenario(g, stressBase(cfg), sc, target)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc.name, err)
		}
		r.Variant = variant
		out = append(out, r)
	}
	return out, nil
}

// stressBase is cfg prepared for the scenarios: the timeline above, the
// experiment's own faults removed, and each open-loop client's schedule
// replaced by its highest rate, held (the configuration under its peak
// load, whatever story the experiment's schedule tells).
func stressBase(cfg topology.Config) topology.Config {
	cfg.Duration, cfg.Warmup, cfg.Interval = SimDuration, SimWarmup, 0
	cfg.Faults = nil
	cfg.Trace = topology.TraceConfig{}
	cfg.Clients = append([]topology.ClientConfig(nil), cfg.Clients...)
	for i := range cfg.Clients {
		c := &cfg.Clients[i]
		peak := 0.0
		for _, p := range c.Schedule {
			peak = max(peak, p.Rate)
		}
		if peak > 0 {
			c.Rate, c.Schedule, c.Linear = peak, nil, false
		}
	}
	return cfg
}
