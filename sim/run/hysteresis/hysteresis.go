package hysteresis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/run/sweep"
	"github.com/ressim/ressim/sim/topology"
)

// Defaults of the ramp: from 1/10 of the client's rate to twice it, 10
// minutes each way, with a minute's hold at the bottom, at the top and at
// the bottom again.
const (
	DefaultFromShare = 0.1
	DefaultToShare   = 2
	DefaultRamp      = 10 * time.Minute
	DefaultHold      = time.Minute
)

// Output file names.
const (
	JSONFile   = "hysteresis.json"
	FigureFile = "hysteresis.png"
)

// ErrSetup marks a ramp that cannot be built from the file and the
// options: no open-loop client with a constant rate, an unknown client,
// a range or a duration out of bounds.
var ErrSetup = errors.New("cannot ramp")

// Options control a hysteresis run.
type Options struct {
	// Client names the client whose rate is ramped ("": the file's first
	// open-loop client with a constant rate).
	Client string
	// From and To are the lowest and the highest rate, requests per
	// second (nil: DefaultFromShare and DefaultToShare of the file's
	// rate).
	From, To *float64
	// Ramp is each ramp's duration (0: DefaultRamp); Hold each hold's
	// (0: DefaultHold; NoHold for none).
	Ramp, Hold time.Duration
	// Threshold is the share of the offered load by which the branches'
	// goodputs must differ (0: DefaultThreshold); Bins the smoothing
	// windows over [From, To] (0: DefaultBins).
	Threshold float64
	Bins      int
	// Seed, if not nil, overrides the experiment's seed.
	Seed *uint64
	// Plots draws hysteresis.png; SVG draws it as SVG too.
	Plots, SVG bool
	// Budget bounds the run.
	Budget runner.Budget
}

// NoHold asks for ramps without holds (Options.Hold).
const NoHold = time.Duration(-1)

// Ramp is the up-then-down schedule of one client's rate.
type Ramp struct {
	// Client is the client's index in the model, Name its name, Target
	// the service it calls.
	Client       int
	Name, Target string
	// FileRate is the client's rate in the file.
	FileRate float64
	// From and To are the lowest and highest rates; Ramp each ramp's
	// duration and Hold each hold's.
	From, To   float64
	Ramp, Hold time.Duration

	base topology.Config
}

// NewRamp picks the client and checks the ramp against the model.
// Errors wrap ErrSetup.
func NewRamp(cfg topology.Config, opt Options) (*Ramp, error) {
	opt = opt.withDefaults()
	idx := -1
	var open []string
	for i, c := range cfg.Clients {
		constant := c.Users == 0 && len(c.Schedule) == 0
		if constant {
			open = append(open, fmt.Sprintf("%q", c.Name))
		}
		if opt.Client == "" && constant && idx < 0 || opt.Client != "" && c.Name == opt.Client {
			idx = i
		}
	}
	switch {
	case opt.Client == "" && idx < 0:
		return nil, fmt.Errorf("%w: the file has no open-loop client with a constant rate: hysteresis ramps such a client's rate", ErrSetup)
	case idx < 0:
		return nil, fmt.Errorf("%w: no client named %q (open-loop clients with a constant rate: %s)", ErrSetup, opt.Client, strings.Join(open, ", "))
	case cfg.Clients[idx].Users > 0 || len(cfg.Clients[idx].Schedule) > 0:
		return nil, fmt.Errorf("%w: client %q is not an open-loop client with a constant rate (those are: %s)", ErrSetup, opt.Client, strings.Join(open, ", "))
	}
	c := cfg.Clients[idx]
	r := &Ramp{Client: idx, Name: c.Name, Target: c.Target, FileRate: c.Rate, From: DefaultFromShare * c.Rate, To: DefaultToShare * c.Rate,
		Ramp: opt.Ramp, Hold: max(opt.Hold, 0), base: cfg}
	if opt.From != nil {
		r.From = *opt.From
	}
	if opt.To != nil {
		r.To = *opt.To
	}
	if !(r.From >= 0 && r.To > r.From && r.To <= topology.MaxRate) {
		return nil, fmt.Errorf("%w: rates from %g to %g: want 0 <= from < to <= %g", ErrSetup, r.From, r.To, float64(topology.MaxRate))
	}
	if opt.Ramp <= 0 {
		return nil, fmt.Errorf("%w: ramp %v: want a duration above 0", ErrSetup, opt.Ramp)
	}
	interval := cfg.Interval
	if interval == 0 {
		interval = topology.DefaultInterval
	}
	// The total, in whole seconds' worth of float, before it can overflow.
	total := 2*r.Ramp.Seconds() + 3*r.Hold.Seconds()
	if n := total / interval.Seconds(); n > topology.MaxIntervals {
		return nil, fmt.Errorf("%w: %s of ramps and holds is %.0f intervals of %v: at most %d", ErrSetup, formatDuration(total), n, interval, topology.MaxIntervals)
	}
	return r, nil
}

func (opt Options) withDefaults() Options {
	if opt.Ramp == 0 {
		opt.Ramp = DefaultRamp
	}
	if opt.Hold == 0 {
		opt.Hold = DefaultHold
	}
	if opt.Threshold == 0 {
		opt.Threshold = DefaultThreshold
	}
	if opt.Bins == 0 {
		opt.Bins = DefaultBins
	}
	return opt
}

// Duration is the whole schedule's: three holds and two ramps.
func (r *Ramp) Duration() time.Duration { return 2*r.Ramp + 3*r.Hold }

// Schedule is the client's rate schedule, interpolated linearly: From
// for Hold, up to To over Ramp, To for Hold, down to From over Ramp, From
// for Hold.
func (r *Ramp) Schedule() []topology.RatePoint {
	h, u := r.Hold, r.Ramp
	return []topology.RatePoint{{At: 0, Rate: r.From}, {At: h, Rate: r.From}, {At: h + u, Rate: r.To},
		{At: 2*h + u, Rate: r.To}, {At: 2*h + 2*u, Rate: r.From}}
}

// Model is the file's model with the client's rate on the schedule, the
// run as long as the schedule, and no faults, actions or traces: the ramp
// is the only trigger. It copies what it changes.
func (r *Ramp) Model() topology.Config {
	cfg := r.base
	cfg.Clients = slices.Clone(cfg.Clients)
	c := &cfg.Clients[r.Client]
	c.Rate, c.Schedule, c.Linear = 0, r.Schedule(), true
	cfg.Duration = r.Duration()
	cfg.Warmup = 0
	cfg.Faults, cfg.Actions = nil, nil
	cfg.Trace = topology.TraceConfig{}
	return cfg
}

// Offered is the schedule's mean rate over [s, e) seconds: exact, since
// the rate is linear between the schedule's points.
func (r *Ramp) Offered(s, e float64) float64 {
	pts := r.Schedule()
	at := func(t float64) float64 {
		for i := 1; i < len(pts); i++ {
			a, b := pts[i-1].At.Seconds(), pts[i].At.Seconds()
			if t <= b && b > a {
				f := math.Max(0, (t-a)/(b-a))
				return pts[i-1].Rate + f*(pts[i].Rate-pts[i-1].Rate)
			}
		}
		return pts[len(pts)-1].Rate
	}
	if !(e > s) {
		return at(s)
	}
	// Trapezoids between s, the schedule's points inside (s, e), and e.
	xs := []float64{s}
	for _, p := range pts {
		if t := p.At.Seconds(); t > s && t < e {
			xs = append(xs, t)
		}
	}
	xs = append(xs, e)
	area := 0.0
	for i := 1; i < len(xs); i++ {
		area += (at(xs[i-1]) + at(xs[i])) / 2 * (xs[i] - xs[i-1])
	}
	return area / (e - s)
}

// Branch is the branch of the interval whose middle is at t seconds.
func (r *Ramp) Branch(t float64) string {
	switch {
	case t < (r.Hold + r.Ramp).Seconds():
		return Up
	case t < (2*r.Hold + r.Ramp).Seconds():
		return Top
	}
	return Down
}

// Plan is the run's plan for the budget: the ramped model, once.
func (r *Ramp) Plan() []runner.PlannedRun {
	return []runner.PlannedRun{{Model: r.Model(), Times: 1, OnDisk: true}}
}

// Point is one interval of the run.
type Point struct {
	// Time is the interval's start, seconds; Offered the scheduled mean
	// rate over it; Sent the client's requests sent per second; Goodput
	// its good answers per second; InSystem the requests in the client's
	// target service, queued or in service (a time average over the
	// interval): its backlog.
	Time, Offered, Sent, Goodput, InSystem float64
	Branch                                 string
}

// Result is a finished run and its band.
type Result struct {
	Name string
	Ramp *Ramp
	Seed uint64
	// Interval is the series' resolution, seconds.
	Interval float64
	// Threshold and Bins are the band's test.
	Threshold float64
	Bins      int
	// Capacity is the client's capacity, and Retried its capacity when
	// every call retries to its limit (sweep.ClientCapacity); 0 when not
	// known.
	Capacity, Retried float64
	Points            []Point
	Band              Band
	Events            uint64
}

// Output is what Run produced.
type Output struct {
	Result   *Result
	Dir      string
	Files    []string
	Warnings []string
}

// Run ramps the client's rate up and down in one run of exp's model,
// finds the bistable band, and writes hysteresis.json and, with plots,
// hysteresis.png into sink, all or nothing.
func Run(ctx context.Context, exp *experiment.Experiment, opt Options, sink output.Sink) (*Output, error) {
	opt = opt.withDefaults()
	if !(opt.Threshold > 0 && opt.Threshold < 1) || opt.Bins < 1 || opt.Bins > MaxBins {
		return nil, fmt.Errorf("%w: threshold %v and %d bins: want a threshold in (0, 1) and 1 to %d bins", ErrSetup, opt.Threshold, opt.Bins, MaxBins)
	}
	r, err := NewRamp(exp.Model, opt)
	if err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	cfg := r.Model()
	if err := opt.Budget.Check(r.Plan()); err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	cfg.Seed = exp.Model.Seed
	if opt.Seed != nil {
		cfg.Seed = *opt.Seed
	}
	if err := sink.Open(filepath.Join(run.DefaultOutDir(exp.Name), "hysteresis")); err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	res, err := runner.NewMeter(ctx, opt.Budget, cfg).Run(cfg, runner.Options{})
	if err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	out := &Output{Result: result(exp.Name, r, cfg, res, opt), Dir: sink.OutDir()}
	if err := out.write(sink, opt.Plots || sink.Interactive()); err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	if err := sink.Commit(); err != nil {
		return nil, fmt.Errorf("hysteresis %s: %w", exp.Name, err)
	}
	return out, nil
}

// result reads the points off the run's series and finds the band.
func result(name string, r *Ramp, cfg topology.Config, res *topology.Result, opt Options) *Result {
	ts := res.Series
	out := &Result{Name: name, Ramp: r, Seed: cfg.Seed, Interval: ts.Interval().Seconds(), Threshold: opt.Threshold,
		Bins: opt.Bins, Events: res.Events}
	if c, ok := sweep.ClientCapacity(cfg, r.Name); ok {
		out.Capacity, out.Retried = c.Rate, c.Retried
	}
	col := func(entity string, k topology.SeriesKey) func(int) float64 {
		c := ts.Find(entity, k.Name)
		if c == nil {
			return func(int) float64 { return math.NaN() }
		}
		return c.Value
	}
	sent := col(r.Name, topology.ClientSent)
	good := col(r.Name, topology.ClientGoodput)
	insys := col(r.Target, topology.ServiceInSystem)
	samples := make([]Sample, 0, ts.Len())
	for i := range ts.Len() {
		s, e := float64(ts.Start(i))/1e9, float64(ts.End(i))/1e9
		p := Point{Time: s, Offered: r.Offered(s, e), Sent: sent(i), Goodput: good(i), InSystem: insys(i),
			Branch: r.Branch((s + e) / 2)}
		out.Points = append(out.Points, p)
		samples = append(samples, Sample{Offered: p.Offered, Goodput: p.Goodput, Branch: p.Branch})
	}
	out.Band = FindBand(samples, r.From, r.To, opt.Bins, opt.Threshold)
	return out
}

// formatDuration writes seconds as a duration, or in hours beyond what
// a time.Duration holds.
func formatDuration(s float64) string {
	if s < float64(math.MaxInt64)/1e9 {
		return time.Duration(s * 1e9).String()
	}
	return fmt.Sprintf("%.3gh", s/3600)
}
