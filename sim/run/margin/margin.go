package margin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Defaults of a search: 12 points of 8 replications each, the threshold
// of P(locked in) = 0.5.
const (
	DefaultPoints       = 12
	DefaultReplications = 8
	DefaultTarget       = 0.5
	// MaxPoints and MaxReplications bound the options.
	MaxPoints       = 100
	MaxReplications = 1000
	// ScanPoints is the number of points of the first scan.
	ScanPoints = 5
)

// Output file names.
const (
	JSONFile   = "margin.json"
	FigureFile = "margin.png"
)

// Options control a search.
type Options struct {
	// Fault is the judged fault's label ("" for the file's only fault).
	Fault string
	// By is ByDuration (the default when empty), BySize or ByLoad.
	By string
	// Target is the P(locked in) the threshold is defined by, in (0, 1);
	// 0 means DefaultTarget.
	Target float64
	// Points is the most trigger points tried (0: DefaultPoints);
	// Replications the runs at each (0: DefaultReplications).
	Points, Replications int
	// Seed, if not nil, overrides the experiment's seed.
	Seed *uint64
	// Jobs is the runs executed in parallel (0: the number of CPUs); the
	// results do not depend on it.
	Jobs int
	// Plots draws margin.png; SVG draws it as SVG too.
	Plots, SVG bool
	// Budget bounds the whole search.
	Budget runner.Budget
	// Progress, if not nil, is called after each run with the runs done
	// and the runs of the current round.
	Progress func(done, total int)
}

// Point is one trigger value tried and its outcomes.
type Point struct {
	// Trigger is the value (seconds, multiplier, rate or requests/s).
	Trigger float64
	// Round is the search round that chose it: 0 the scan, then one per
	// extension or refinement.
	Round int
	// Runs is the replications run, LockedIn how many ended locked in
	// (the judged fault's verdict locked_in or relapsed).
	Runs, LockedIn int
	// First is the replication index of its first run: run r of the
	// point has seed run.ReplicationSeed(seed, First+r).
	First int
}

// Result is a finished search.
type Result struct {
	Name    string
	Trigger *Trigger
	Target  float64
	Seed    uint64
	// Replications per point, and the most points allowed.
	Replications, MaxPoints int
	// Points in the order tried.
	Points []Point
	// Fit is the final dose-response fit.
	Fit Fit
	// Threshold and its 95 % interval, in the trigger's unit.
	Threshold, Lo, Hi float64
	// Status is "found" (the threshold lies within the points tried),
	// "above_range" or "below_range" (it was extrapolated beyond them).
	Status string
}

// Output is what Run produced.
type Output struct {
	Result   *Result
	Dir      string
	Files    []string
	Warnings []string
}

// Plan is the search's plan for the budget: at most Points x
// Replications runs of the model at the largest trigger it may try.
func Plan(t *Trigger, points, reps int) []runner.PlannedRun {
	return []runner.PlannedRun{{Model: t.Model(t.Max), Times: points * reps, OnDisk: true}}
}

// Run searches exp for the smallest trigger at which P(locked in)
// reaches the target, and writes margin.json and margin.png into sink,
// all or nothing: a stopped or failed search writes nothing.
func Run(ctx context.Context, exp *experiment.Experiment, opt Options, sink output.Sink) (*Output, error) {
	opt = opt.withDefaults()
	if !(opt.Target > 0 && opt.Target < 1) {
		return nil, fmt.Errorf("%w: target %v: want a probability strictly between 0 and 1", ErrSetup, opt.Target)
	}
	if opt.Points < 2 || opt.Points > MaxPoints || opt.Replications < 1 || opt.Replications > MaxReplications {
		return nil, fmt.Errorf("%w: %d point(s) x %d replication(s): want 2 to %d points and 1 to %d replications", ErrSetup, opt.Points, opt.Replications, MaxPoints, MaxReplications)
	}
	t, err := NewTrigger(exp.Model, opt.Fault, opt.By)
	if err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	if err := opt.Budget.Check(Plan(t, opt.Points, opt.Replications)); err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	seed := exp.Model.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	if err := sink.Open(filepath.Join(run.DefaultOutDir(exp.Name), "margin")); err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	s := &search{t: t, opt: opt, seed: seed, meter: runner.NewMeter(ctx, opt.Budget, t.Model(t.Max))}
	if err := s.run(ctx); err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	res := s.result(exp.Name)
	out := &Output{Result: res, Dir: sink.OutDir()}
	if err := out.write(sink, opt.Plots || sink.Interactive()); err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	if err := sink.Commit(); err != nil {
		return nil, fmt.Errorf("margin %s: %w", exp.Name, err)
	}
	return out, nil
}

func (opt Options) withDefaults() Options {
	if opt.By == "" {
		opt.By = ByDuration
	}
	if opt.Target == 0 {
		opt.Target = DefaultTarget
	}
	if opt.Points == 0 {
		opt.Points = DefaultPoints
	}
	if opt.Replications == 0 {
		opt.Replications = DefaultReplications
	}
	return opt
}

// search is one search in progress.
type search struct {
	t      *Trigger
	opt    Options
	seed   uint64
	meter  *runner.Meter
	points []Point
	round  int
}

// run chooses and runs the points: a scan, then extensions of the range
// while the target is not bracketed, then refinements placed by the fit,
// until the points are spent or a new one would tell nothing new.
func (s *search) run(ctx context.Context) error {
	t := s.t
	n := min(ScanPoints, s.opt.Points)
	glo, ghi := t.G(t.ScanLo), t.G(t.ScanHi)
	scan := make([]float64, n)
	for i := range scan {
		scan[i] = t.X(glo + (ghi-glo)*float64(i)/float64(n-1))
	}
	scan[0], scan[n-1] = t.ScanLo, t.ScanHi // exactly: the file's own trigger is one of them
	if err := s.runRound(ctx, scan); err != nil {
		return err
	}
	step := 2 * (ghi - glo) / float64(n-1)
	gmin, gmax := t.G(t.Min), t.G(t.Max)
	for len(s.points) < s.opt.Points {
		sorted := s.sorted()
		low, high := sorted[0], sorted[len(sorted)-1]
		var next []float64
		switch {
		case !s.reached() && t.G(high.Trigger) < gmax-1e-9:
			// Nothing reaches the target: look higher.
			next = []float64{t.X(math.Min(t.G(high.Trigger)+step, gmax))}
		case s.share(low) >= s.opt.Target && t.G(low.Trigger) > gmin+1e-9:
			// The smallest trigger tried already reaches it: look lower.
			next = []float64{t.X(math.Max(t.G(low.Trigger)-step, gmin))}
		default:
			next = s.refine(sorted)
		}
		if len(next) == 0 {
			break
		}
		if err := s.runRound(ctx, next); err != nil {
			return err
		}
	}
	return nil
}

// reached reports whether a point tried reaches the target.
func (s *search) reached() bool {
	for _, p := range s.points {
		if s.share(p) >= s.opt.Target {
			return true
		}
	}
	return false
}

func (s *search) share(p Point) float64 { return float64(p.LockedIn) / float64(p.Runs) }

// sorted is the points by trigger.
func (s *search) sorted() []Point {
	ps := slices.Clone(s.points)
	slices.SortStableFunc(ps, func(a, b Point) int {
		if a.Trigger < b.Trigger {
			return -1
		}
		if a.Trigger > b.Trigger {
			return 1
		}
		return 0
	})
	return ps
}

// refine places up to three points where the fitted curve is at the
// target and about one logit unit either side of it (P 0.27 and 0.73
// for the median), inside the range tried and apart from every point
// tried; failing that, the middle of the widest gap between points
// inside the threshold's interval. None when that gap is too narrow to
// tell anything new.
func (s *search) refine(sorted []Point) []float64 {
	t := s.t
	f := FitLogistic(s.counts(), s.opt.Target)
	glo, ghi := t.G(sorted[0].Trigger), t.G(sorted[len(sorted)-1].Trigger)
	delta := (ghi - glo) / 100
	taken := make([]float64, 0, len(sorted)+3)
	for _, p := range sorted {
		taken = append(taken, t.G(p.Trigger))
	}
	far := func(g float64) bool {
		for _, h := range taken {
			if math.Abs(g-h) < delta {
				return false
			}
		}
		return true
	}
	left := s.opt.Points - len(s.points)
	var next []float64
	if f.Slope > 0 {
		for _, eta := range []float64{0, -1, 1} {
			if len(next) == min(3, left) {
				break
			}
			g := math.Max(glo, math.Min(ghi, f.Theta+eta/f.Slope))
			if far(g) {
				next, taken = append(next, t.X(g)), append(taken, g)
			}
		}
	}
	if len(next) > 0 {
		return next
	}
	best, at := 0.0, 0.0
	for i := 1; i < len(sorted); i++ {
		a, b := t.G(sorted[i-1].Trigger), t.G(sorted[i].Trigger)
		if b < f.Lo || a > f.Hi {
			continue
		}
		if b-a > best {
			best, at = b-a, (a+b)/2
		}
	}
	if best < 2*delta {
		return nil
	}
	return []float64{t.X(at)}
}

// counts is the points on the fitting scale.
func (s *search) counts() []Count {
	cs := make([]Count, len(s.points))
	for i, p := range s.points {
		cs[i] = Count{G: s.t.G(p.Trigger), N: p.Runs, K: p.LockedIn}
	}
	return cs
}

// runRound runs the replications of the points xs, in parallel, and
// appends them in order.
func (s *search) runRound(ctx context.Context, xs []float64) error {
	reps := s.opt.Replications
	first := len(s.points) * reps
	cfgs := make([]topology.Config, len(xs))
	for i, x := range xs {
		xs[i] = s.t.Snap(x)
		cfgs[i] = s.t.Model(xs[i])
	}
	locked := make([]bool, len(xs)*reps)
	errs := make([]error, len(xs)*reps)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := s.meter.Within(rctx)
	_, err := run.Parallel(rctx, len(locked), s.opt.Jobs, func(i int) {
		cfg := cfgs[i/reps]
		cfg.Seed = run.ReplicationSeed(s.seed, first+i)
		res, err := g.Run(cfg, runner.Options{})
		if err != nil {
			errs[i] = err
			cancel()
			return
		}
		locked[i] = topology.IsLockedIn(res.Faults[s.t.Fault].Recovery.Verdict)
	}, s.opt.Progress)
	// The first error in run order that is not the cancellation the
	// failed run caused, whatever -j.
	var failed error
	for _, e := range errs {
		if e != nil && (failed == nil || errors.Is(failed, context.Canceled) && !errors.Is(e, context.Canceled)) {
			failed = e
		}
	}
	if failed != nil {
		return failed
	}
	if err != nil {
		return err
	}
	for i, x := range xs {
		p := Point{Trigger: x, Round: s.round, Runs: reps, First: first + i*reps}
		for r := range reps {
			if locked[i*reps+r] {
				p.LockedIn++
			}
		}
		s.points = append(s.points, p)
	}
	s.round++
	return nil
}

// result fits the final curve and reads the threshold off it.
func (s *search) result(name string) *Result {
	t := s.t
	f := FitLogistic(s.counts(), s.opt.Target)
	r := &Result{Name: name, Trigger: t, Target: s.opt.Target, Seed: s.seed, Replications: s.opt.Replications,
		MaxPoints: s.opt.Points, Points: s.points, Fit: f,
		Threshold: t.X(f.Theta), Lo: t.X(f.Lo), Hi: t.X(f.Hi), Status: "found"}
	sorted := s.sorted()
	switch {
	case f.Theta > t.G(sorted[len(sorted)-1].Trigger):
		r.Status = "above_range"
	case f.Theta < t.G(sorted[0].Trigger):
		r.Status = "below_range"
	}
	return r
}
