package rare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Methods.
const (
	Naive     = "naive"
	Splitting = "splitting"
)

// Defaults and bounds.
const (
	// DefaultRuns is the naive replications, or the splitting runs per
	// stage; MaxRuns bounds it.
	DefaultRuns = 200
	// DefaultStageRuns is the splitting runs per stage.
	DefaultStageRuns = 100
	MaxRuns          = 1_000_000
	// DefaultRepeats is the independent splitting estimates averaged;
	// MaxRepeats bounds it.
	DefaultRepeats = 10
	MaxRepeats     = 1000
	// MaxStages bounds a splitting estimate's stages.
	MaxStages = 40
	// StageTarget is the conditional probability each level aims at.
	StageTarget = 0.2
	// PlanStages is the stages the budget's plan counts on.
	PlanStages = 8
	// DefaultHold is how long the deficit must last when the file sets
	// no recovery window.
	DefaultHold = 5 * time.Second
	// DeficitShare: an interval shows a deficit when its full answers in
	// time are fewer than this share of the user requests sent in it.
	DeficitShare = 0.5
	// JSONFile is the output.
	JSONFile = "rare.json"
)

// ErrSetup marks options that cannot be run.
var ErrSetup = errors.New("cannot estimate")

// Options control an estimate.
type Options struct {
	// Method is Naive or Splitting.
	Method string
	// Within is the simulated time of each trajectory (the warm-up
	// included); 0 means the file's duration.
	Within time.Duration
	// Runs is the naive replications or the splitting runs per stage.
	Runs int
	// Repeats is the independent splitting estimates averaged (0:
	// DefaultRepeats); their spread gives the interval.
	Repeats int
	// WithFault keeps the file's faults; without it they are removed.
	WithFault bool
	// Seed, if not nil, overrides the experiment's seed.
	Seed *uint64
	// Jobs is the runs in parallel; the result does not depend on it.
	Jobs int
	// Budget bounds the whole estimate.
	Budget runner.Budget
}

// Stage is one level of a splitting estimate.
type Stage struct {
	// Repeat is the independent estimate the stage belongs to.
	Repeat int `json:"repeat"`
	// Level is the backlog the stage's runs must reach; for the last
	// stage (LockIn) the level it started from, and the runs must lock in.
	Level       int64   `json:"level"`
	LockIn      bool    `json:"lock_in_stage"`
	Starts      int     `json:"starts"`
	Runs        int     `json:"runs"`
	Reached     int     `json:"reached"`
	Conditional float64 `json:"conditional_probability"`
	// ReplayedS is the simulated seconds re-run to reach the starting
	// points: the cost of restart by replay.
	ReplayedS float64 `json:"replayed_s"`
}

// Result is a finished estimate.
type Result struct {
	Name, Method        string
	Seed                uint64
	Within, Hold        time.Duration
	Warmup              time.Duration
	WithFault           bool
	Probability, Lo, Hi float64
	Runs, LockedIn      int
	Events              uint64
	Stages              []Stage
	// Repeats are the independent splitting estimates averaged.
	Repeats []float64
}

// Output is what Run produced.
type Output struct {
	Result *Result
	Dir    string
	Files  []string
}

// Model is the file's model as the estimate runs it: no faults unless
// opt.WithFault, lasting opt.Within.
func Model(cfg topology.Config, opt Options) topology.Config {
	if !opt.WithFault {
		cfg.Faults = nil
	}
	if opt.Within > 0 {
		cfg.Duration = opt.Within
	}
	return cfg
}

// Plan is the estimate's plan for the budget: the naive runs, or for
// splitting PlanStages stages of runs that each replay their past (at
// most one more trajectory each).
func Plan(cfg topology.Config, opt Options) []runner.PlannedRun {
	n := opt.Runs
	if opt.Method == Splitting {
		n = opt.Runs * 2 * PlanStages * repeats(opt)
	}
	return []runner.PlannedRun{{Model: Model(cfg, opt), Times: n, OnDisk: true}}
}

// Check validates opt against the file's model; errors wrap ErrSetup.
func Check(cfg topology.Config, opt Options) error {
	switch opt.Method {
	case Naive, Splitting:
	default:
		return fmt.Errorf("%w: --method %q: want naive or splitting", ErrSetup, opt.Method)
	}
	if opt.Runs < 2 || opt.Runs > MaxRuns {
		return fmt.Errorf("%w: --runs must be in [2, %d], got %d", ErrSetup, MaxRuns, opt.Runs)
	}
	if opt.Repeats < 0 || opt.Repeats == 1 || opt.Repeats > MaxRepeats {
		return fmt.Errorf("%w: --repeats must be in [2, %d], got %d", ErrSetup, MaxRepeats, opt.Repeats)
	}
	if opt.Within < 0 {
		return fmt.Errorf("%w: --within must be positive, got %v", ErrSetup, opt.Within)
	}
	m := Model(cfg, opt)
	if m.Warmup+hold(m) > m.Duration {
		return fmt.Errorf("%w: --within %v leaves no room after the warm-up (%v) for a deficit held %v", ErrSetup, m.Duration, m.Warmup, hold(m))
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrSetup, err)
	}
	return nil
}

func repeats(opt Options) int {
	if opt.Repeats == 0 {
		return DefaultRepeats
	}
	return opt.Repeats
}

// hold is how long the deficit must last: the file's recovery window
// (default 5 s).
func hold(cfg topology.Config) time.Duration {
	if cfg.Recovery.Window > 0 {
		return cfg.Recovery.Window
	}
	return DefaultHold
}

// Run estimates the probability and writes rare.json into sink, all or
// nothing: a stopped or failed estimate writes nothing.
func Run(ctx context.Context, exp *experiment.Experiment, opt Options, sink output.Sink) (*Output, error) {
	if err := Check(exp.Model, opt); err != nil {
		return nil, err
	}
	cfg := Model(exp.Model, opt)
	if err := opt.Budget.Check(Plan(exp.Model, opt)); err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
	seed := cfg.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	if err := sink.Open(filepath.Join(run.DefaultOutDir(exp.Name), "rare")); err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	e := &estimator{ctx: ctx, cfg: cfg, opt: opt, seed: seed, hold: hold(cfg), iv: cfg.Interval, meter: runner.NewMeter(ctx, opt.Budget, cfg)}
	if e.iv == 0 {
		e.iv = topology.DefaultInterval
	}
	res, err := e.estimate()
	if err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
	res.Name = exp.Name
	out := &Output{Result: res, Dir: sink.OutDir()}
	p, err := sink.File(JSONFile, res.WriteJSON)
	if err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
	out.Files = append(out.Files, p)
	if err := sink.Commit(); err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
	return out, nil
}

type estimator struct {
	ctx    context.Context
	cfg    topology.Config
	opt    Options
	seed   uint64
	hold   time.Duration
	iv     time.Duration
	meter  *runner.Meter
	next   int // the next replication index
	events uint64
}

// traj is a trajectory's recipe: its root seed and its branches. Run from
// 0 with them, it reproduces the trajectory exactly (restart by replay).
type traj struct {
	seed     uint64
	branches []runner.Branch
	start    time.Duration // where it was started from (0: the beginning)
	locked   bool          // started from its own lock-in
}

// outcome is what a run of a trajectory saw.
type outcome struct {
	max      int64 // the largest backlog at an interval's end after the start and the warm-up
	lockedIn bool
	lockedAt time.Duration
	times    []time.Duration // interval ends after the start and the warm-up
	backlog  []int64
	first    int64 // the backlog at the start (the replay check)
	events   uint64
}

// simulate runs trajectories ts in parallel, each stopped at its lock-in,
// and returns their outcomes in order, whatever Jobs.
func (e *estimator) simulate(ts []traj, record bool) ([]outcome, error) {
	outs := make([]outcome, len(ts))
	errs := make([]error, len(ts))
	rctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	g := e.meter.Within(rctx)
	warm := e.cfg.Warmup
	_, err := run.Parallel(rctx, len(ts), e.opt.Jobs, func(i int) {
		t := ts[i]
		o := &outs[i]
		o.first = -1
		var since time.Duration = -1 // the start of the deficits in a row
		watch := func(st topology.IntervalState) bool {
			now := st.Now
			if now == t.start {
				o.first = st.Backlog
			}
			if now > warm && st.Sent > 0 && float64(st.Good) < DeficitShare*float64(st.Sent) {
				if since < 0 {
					since = now - e.iv
				}
			} else {
				since = -1
			}
			if now >= t.start && now > warm {
				o.max = max(o.max, st.Backlog)
				if record {
					o.times = append(o.times, now)
					o.backlog = append(o.backlog, st.Backlog)
				}
			}
			if since >= 0 && now-since >= e.hold {
				o.lockedIn, o.lockedAt = true, now
				return true
			}
			return false
		}
		cfg := e.cfg
		cfg.Seed = t.seed
		res, err := g.Run(cfg, runner.Options{Watch: watch, Branches: t.branches})
		if err != nil {
			errs[i] = err
			cancel()
			return
		}
		o.events = res.Events
	}, nil)
	// The first error in run order that is not the cancellation a failed
	// run caused, whatever Jobs.
	var failed error
	for _, x := range errs {
		if x != nil && (failed == nil || errors.Is(failed, context.Canceled) && !errors.Is(x, context.Canceled)) {
			failed = x
		}
	}
	if failed != nil {
		return nil, failed
	}
	if err != nil {
		return nil, err
	}
	for _, o := range outs {
		e.events += o.events
	}
	return outs, nil
}

// fresh is n trajectories from the beginning with the next seeds.
func (e *estimator) fresh(n int) []traj {
	ts := make([]traj, n)
	for i := range ts {
		ts[i] = traj{seed: run.ReplicationSeed(e.seed, e.next)}
		e.next++
	}
	return ts
}

func (e *estimator) estimate() (*Result, error) {
	r := &Result{Method: e.opt.Method, Seed: e.seed, Within: e.cfg.Duration, Hold: e.hold, Warmup: e.cfg.Warmup, WithFault: e.opt.WithFault}
	var err error
	if e.opt.Method == Naive {
		err = e.naive(r)
	} else {
		err = e.repeat(r)
	}
	if err != nil {
		return nil, err
	}
	r.Events = e.events
	return r, nil
}

func (e *estimator) naive(r *Result) error {
	outs, err := e.simulate(e.fresh(e.opt.Runs), false)
	if err != nil {
		return err
	}
	for _, o := range outs {
		if o.lockedIn {
			r.LockedIn++
		}
	}
	r.Runs = len(outs)
	r.Probability = float64(r.LockedIn) / float64(r.Runs)
	ci := analysis.Wilson(r.LockedIn, r.Runs)
	r.Lo, r.Hi = ci.Lo, ci.Hi
	return nil
}

// repeat runs Repeats independent splitting estimates (each with its own
// seeds and levels) and averages them; the interval is Student's t on
// their mean. The stages' delta-method interval would ignore that runs
// started from the same crossing are correlated, and is far too narrow.
func (e *estimator) repeat(r *Result) error {
	k := repeats(e.opt)
	for i := range k {
		one := &Result{}
		if err := e.splitting(one); err != nil {
			return err
		}
		for _, st := range one.Stages {
			st.Repeat = i
			r.Stages = append(r.Stages, st)
		}
		r.Runs += one.Runs
		r.Repeats = append(r.Repeats, one.Probability)
	}
	mean, sd := 0.0, 0.0
	for _, x := range r.Repeats {
		mean += x
	}
	mean /= float64(k)
	for _, x := range r.Repeats {
		sd += (x - mean) * (x - mean)
	}
	sd = math.Sqrt(sd / float64(k-1))
	h := analysis.TCritical95(k-1) * sd / math.Sqrt(float64(k))
	r.Probability, r.Lo, r.Hi = mean, math.Max(0, mean-h), math.Min(1, mean+h)
	return nil
}

// splitting is one fixed-effort multilevel splitting on the backlog: each
// stage runs opt.Runs trajectories from the previous level's crossings
// (round robin), each restarted by replaying its recipe to the crossing
// and branching its random streams there. A stage in which at least
// StageTarget of the runs lock in is the last: its conditional
// probability is the share that locks in. Otherwise the next level is the
// backlog about StageTarget of the runs reach (above this level), and
// its conditional probability the share that reaches it; a run that
// locks in without reaching it restarts from its lock-in, so the lock-in
// is inside every level.
func (e *estimator) splitting(r *Result) error {
	n := e.opt.Runs
	starts := e.fresh(n)
	level := int64(0)
	p := 1.0
	for stage := 0; ; stage++ {
		if stage == MaxStages {
			return fmt.Errorf("splitting did not reach the lock-in in %d stages", MaxStages)
		}
		ts := make([]traj, n)
		replayed := 0.0
		for i := range ts {
			s := starts[i%len(starts)]
			ts[i] = s
			if stage > 0 {
				ts[i].branches = append(slices.Clone(s.branches), runner.Branch{At: s.start, Seed: run.ReplicationSeed(e.seed, e.next)})
				e.next++
				replayed += s.start.Seconds()
			}
		}
		outs, err := e.simulate(ts, true)
		if err != nil {
			return err
		}
		r.Runs += n
		locked := 0
		for i, o := range outs {
			t := ts[i]
			if t.locked && !(o.lockedIn && o.lockedAt == t.start) || stage > 0 && !t.locked && o.first < level {
				return fmt.Errorf("replay of run %d did not reproduce its starting point at %v (backlog %d, level %d)", i, t.start, o.first, level)
			}
			if o.lockedIn {
				locked++
			}
		}
		st := Stage{Starts: len(starts), Runs: n, ReplayedS: replayed}
		final := float64(locked) >= StageTarget*float64(n)
		if final {
			st.Level, st.LockIn, st.Reached = level, true, locked
		} else {
			maxes := make([]int64, n)
			for i, o := range outs {
				maxes[i] = o.max
			}
			slices.Sort(maxes)
			next := max(maxes[int(math.Floor(float64(n)*(1-StageTarget)))], level+1)
			st.Level = next
			var nstarts []traj
			for i, o := range outs {
				t := traj{seed: ts[i].seed, branches: ts[i].branches}
				k := slices.IndexFunc(o.backlog, func(v int64) bool { return v >= next })
				switch {
				case k >= 0:
					t.start = o.times[k]
				case o.lockedIn:
					t.start, t.locked = o.lockedAt, true
				default:
					continue
				}
				st.Reached++
				nstarts = append(nstarts, t)
			}
			starts = nstarts
			level = next
		}
		st.Conditional = float64(st.Reached) / float64(n)
		r.Stages = append(r.Stages, st)
		if st.Reached == 0 {
			// Nothing reached the level: this estimate is 0.
			r.Probability = 0
			return nil
		}
		p *= st.Conditional
		if final {
			break
		}
	}
	r.Probability = p
	return nil
}
