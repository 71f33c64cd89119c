package rare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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
	AMS       = "ams"
	// FixedSuccess is splitting at every backlog 1..Level, each stage
	// run until it has Successes crossings (Level mode only).
	FixedSuccess = "fixed-success"
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
	// AMSKill is the share of an AMS estimate's particles killed and
	// restarted at each iteration (at least one; more on ties). Smaller
	// is less variance for the same runs (Cérou and Guyader: one at a
	// time is best) but fewer runs in parallel: at 8e-5 on exact-small,
	// a tenth gave a relative interval width of 1.37, 5 % 0.81 and 2 %
	// 0.51 for about 5M events each.
	AMSKill = 0.02
	// DefaultSuccesses is the crossings a fixed-success stage waits for.
	DefaultSuccesses = 20
	// PlanSuccessFactor: the budget's plan counts each fixed-success
	// stage as this many times Successes runs (a conditional probability
	// of 1/PlanSuccessFactor), each twice for its replay.
	PlanSuccessFactor = 10
	// MaxAMSIterations bounds one AMS estimate's iterations.
	MaxAMSIterations = 100_000
	// DefaultHold is how long the deficit must last when the file sets
	// no recovery window.
	DefaultHold = 5 * time.Second
	// DeficitShare: an interval shows a deficit when its full answers in
	// time are fewer than this share of the user requests sent in it.
	DeficitShare = 0.5
	// JSONFile and FigureFile are the outputs.
	JSONFile   = "rare.json"
	FigureFile = "rare.png"
	// MaxLevel bounds --level.
	MaxLevel = 1 << 40
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
	// Kill is the share of AMS particles killed at each iteration (0:
	// AMSKill).
	Kill float64
	// Successes is the crossings each fixed-success stage runs for (0:
	// DefaultSuccesses).
	Successes int
	// Level, if positive, defines the locked-in state as a backlog (the
	// attempts busy or queued in the services) of at least Level at an
	// interval's end after the warm-up, instead of a deficit held for the
	// recovery window: the definition a Markov chain's high-backlog mode
	// uses (ressim ctmc --level), so the two can be compared.
	Level int64
	// Seed, if not nil, overrides the experiment's seed.
	Seed *uint64
	// Jobs is the runs in parallel; the result does not depend on it.
	Jobs int
	// Plots draws rare.png (FigureFile).
	Plots bool
	// Budget bounds the whole estimate.
	Budget runner.Budget
}

// Stage is one level of a splitting estimate.
type Stage struct {
	// Repeat is the independent estimate the stage belongs to.
	Repeat int `json:"repeat"`
	// Level is the backlog the stage's runs must reach; for the last
	// stage (LockIn) the level it started from, and the runs must lock in.
	Level int64 `json:"level"`
	// InFlight, for AMS: an iteration kills the particles whose largest
	// score, backlog plus user requests in flight and then backlog, is
	// at most (Level + InFlight, Level).
	InFlight    int64   `json:"in_flight,omitempty"`
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
	Level               int64
	Probability, Lo, Hi float64
	Runs, LockedIn      int
	Events              uint64
	Stages              []Stage
	// Repeats are the independent splitting estimates averaged.
	Repeats []float64
}

// Output is what Run produced.
type Output struct {
	Result   *Result
	Dir      string
	Files    []string
	Warnings []string
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
	switch opt.Method {
	case Splitting:
		n = opt.Runs * 2 * PlanStages * repeats(opt)
	case FixedSuccess:
		n = successes(opt) * PlanSuccessFactor * 2 * int(min(opt.Level, MaxStages)) * repeats(opt)
	case AMS:
		// N particles, then each iteration's kills, each counted twice
		// for its replay.
		// About -ln(1e-9) / share iterations of share x N kills each.
		iters := int(math.Ceil(-math.Log(1e-9) / killShare(opt)))
		n = (opt.Runs + 2*amsKill(opt.Runs, killShare(opt))*iters) * repeats(opt)
	}
	return []runner.PlannedRun{{Model: Model(cfg, opt), Times: n, OnDisk: true}}
}

// Check validates opt against the file's model; errors wrap ErrSetup.
func Check(cfg topology.Config, opt Options) error {
	switch opt.Method {
	case Naive, Splitting, AMS:
	case FixedSuccess:
		if opt.Level == 0 {
			return fmt.Errorf("%w: --method fixed-success splits at every backlog up to --level; set --level", ErrSetup)
		}
		if opt.Level > MaxStages {
			return fmt.Errorf("%w: --method fixed-success has one stage per backlog, at most %d; --level %d", ErrSetup, MaxStages, opt.Level)
		}
	default:
		return fmt.Errorf("%w: --method %q: want naive, splitting, ams or fixed-success", ErrSetup, opt.Method)
	}
	if !(opt.Kill >= 0 && opt.Kill < 1) {
		return fmt.Errorf("%w: --kill must be in (0, 1), got %v", ErrSetup, opt.Kill)
	}
	if opt.Successes < 0 || opt.Successes == 1 || opt.Successes > MaxRuns {
		return fmt.Errorf("%w: --successes must be in [2, %d], got %d", ErrSetup, MaxRuns, opt.Successes)
	}
	if opt.Runs < 2 || opt.Runs > MaxRuns {
		return fmt.Errorf("%w: --runs must be in [2, %d], got %d", ErrSetup, MaxRuns, opt.Runs)
	}
	if opt.Repeats < 0 || opt.Repeats == 1 || opt.Repeats > MaxRepeats {
		return fmt.Errorf("%w: --repeats must be in [2, %d], got %d", ErrSetup, MaxRepeats, opt.Repeats)
	}
	if opt.Level < 0 || opt.Level > MaxLevel {
		return fmt.Errorf("%w: --level must be in [1, %d], got %d", ErrSetup, MaxLevel, opt.Level)
	}
	if opt.Within < 0 {
		return fmt.Errorf("%w: --within must be positive, got %v", ErrSetup, opt.Within)
	}
	m := Model(cfg, opt)
	if opt.Level == 0 && m.Warmup+hold(m) > m.Duration || m.Warmup >= m.Duration {
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
	var fig *output.Figure
	if opt.Plots && len(res.Stages) > 0 {
		f := output.ChartFigure(FigureFile, res.Figure())
		fig = &f
	}
	files, warn, err := output.WriteResult(sink, JSONFile, res.WriteJSON, fig)
	out.Files, out.Warnings = files, warn
	if err != nil {
		return nil, fmt.Errorf("rare %s: %w", exp.Name, err)
	}
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
	score    []int64 // AMS's score at those times (scoreOf)
	maxScore int64
	first    int64 // the backlog at the start (the replay check)
	events   uint64
}

// see takes in an interval end after the start and the warm-up: the
// largest backlog and score so far, and with record the end's time,
// backlog and score.
func (o *outcome) see(st topology.IntervalState, record bool) {
	o.max = max(o.max, st.Backlog)
	o.maxScore = max(o.maxScore, scoreOf(st))
	if record {
		o.times = append(o.times, st.Now)
		o.backlog = append(o.backlog, st.Backlog)
		o.score = append(o.score, scoreOf(st))
	}
}

// simulate runs trajectories ts in parallel, each stopped at its lock-in,
// and returns their outcomes in order, whatever Jobs.
func (e *estimator) simulate(ts []traj, record bool) ([]outcome, error) {
	return e.simulateTo(ts, record, 0)
}

// simulateTo is simulate with runs also stopped at the first interval end
// after their start with a backlog of at least stop (0: never).
func (e *estimator) simulateTo(ts []traj, record bool, stop int64) ([]outcome, error) {
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
			if lvl := e.opt.Level; lvl > 0 {
				// Locked in: the backlog at the level at an interval's end.
				if now >= t.start && now > warm {
					o.see(st, record)
					if st.Backlog >= lvl {
						o.lockedIn, o.lockedAt = true, now
						return true
					}
					return stop > 0 && st.Backlog >= stop
				}
				return false
			}
			if now > warm && st.Sent > 0 && float64(st.Good) < DeficitShare*float64(st.Sent) {
				if since < 0 {
					since = now - e.iv
				}
			} else {
				since = -1
			}
			if now >= t.start && now > warm {
				o.see(st, record)
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
	r := &Result{Method: e.opt.Method, Seed: e.seed, Within: e.cfg.Duration, Hold: e.hold, Warmup: e.cfg.Warmup, WithFault: e.opt.WithFault, Level: e.opt.Level}
	if e.opt.Level > 0 {
		r.Hold = 0
	}
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
		run := e.splitting
		switch e.opt.Method {
		case AMS:
			run = e.ams
		case FixedSuccess:
			run = e.fixedSuccess
		}
		if err := run(one); err != nil {
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

// amsKill is the particles an AMS iteration kills at least.
func amsKill(n int, share float64) int { return max(1, int(math.Round(share*float64(n)))) }

func killShare(opt Options) float64 {
	if opt.Kill == 0 {
		return AMSKill
	}
	return opt.Kill
}

// scoreShift: AMS's score is (backlog + user requests in flight) <<
// scoreShift + backlog. The sum is what the backlog could grow to
// without a new request: every request in flight may still time out
// and leave its attempt behind as its retry joins the queue (the
// backlog alone ties whole populations at once, and ranks a queue of
// orphans with one of live requests). The backlog breaks the sum's
// ties.
const scoreShift = 24

func scoreOf(st topology.IntervalState) int64 {
	b := min(max(st.Backlog, 0), 1<<scoreShift-1)
	f := min(max(st.InFlight, 0), 1<<scoreShift-1)
	return (b+f)<<scoreShift + b
}

// score is how far a run got: its largest score, or for a run that
// locked in the target score.
func (e *estimator) score(o outcome) int64 {
	if o.lockedIn {
		return e.target()
	}
	return min(o.maxScore, e.target()-1)
}

// target is the score of the lock-in: above every score. In Level mode
// a particle counts as there only by locking in (its backlog at the
// level); its score alone cannot say so.
func (e *estimator) target() int64 { return math.MaxInt64 }

// ams is one generalized adaptive multilevel splitting estimate (Cérou
// and Guyader 2007; with ties, as the integer backlog has, Bréhier,
// Gazeau, Goudenège, Lelièvre and Rousset 2016, which keeps it
// unbiased). N = opt.Runs particles run from the start, each scored by
// its largest scoreOf over its interval ends (backlog plus user requests
// in flight, then backlog; the lock-in scores above every score). While
// the k-th lowest score z (k = AMSKill of N) is below the lock-in, every
// particle scoring at most z is killed, and each is replaced by a copy
// of a survivor chosen at random, restarted by replay from the
// survivor's first interval end scoring above z and branched
// there. The estimate is the product over iterations of (1 - killed/N),
// times the share of the final particles that locked in. Unlike
// fixed-effort splitting, the survivors keep their own futures and only
// the killed are re-run, in steps of AMSKill (2 %).
func (e *estimator) ams(r *Result) error {
	n := e.opt.Runs
	k := amsKill(n, killShare(e.opt))
	parts := e.fresh(n)
	outs, err := e.simulate(parts, true)
	if err != nil {
		return err
	}
	r.Runs += n
	pick := rand.New(rand.NewPCG(run.ReplicationSeed(e.seed, e.next), 0x616d73))
	e.next++
	p := 1.0
	scores := make([]int64, n)
	for it := 0; ; it++ {
		if it == MaxAMSIterations {
			return fmt.Errorf("AMS did not reach the lock-in in %d iterations", MaxAMSIterations)
		}
		for i, o := range outs {
			scores[i] = e.score(o)
		}
		sorted := slices.Clone(scores)
		slices.Sort(sorted)
		z := sorted[k-1]
		if z >= e.target() {
			break
		}
		var killed, alive []int
		for i, sc := range scores {
			if sc <= z {
				killed = append(killed, i)
			} else {
				alive = append(alive, i)
			}
		}
		st := Stage{Level: z & (1<<scoreShift - 1), InFlight: z>>scoreShift - z&(1<<scoreShift-1), Starts: len(alive), Runs: len(killed), Reached: len(alive), Conditional: float64(len(alive)) / float64(n)}
		if len(alive) == 0 {
			// Every particle tied at the lowest score: nothing to clone.
			r.Stages = append(r.Stages, st)
			r.Probability = 0
			return nil
		}
		ts := make([]traj, len(killed))
		for j := range killed {
			src := alive[pick.IntN(len(alive))]
			o, t := outs[src], parts[src]
			c := traj{seed: t.seed, branches: t.branches}
			if x := slices.IndexFunc(o.score, func(v int64) bool { return v > z }); x >= 0 {
				c.start = o.times[x]
			} else {
				c.start, c.locked = o.lockedAt, true
			}
			c.branches = append(slices.Clone(t.branches), runner.Branch{At: c.start, Seed: run.ReplicationSeed(e.seed, e.next)})
			e.next++
			st.ReplayedS += c.start.Seconds()
			ts[j] = c
		}
		nouts, err := e.simulate(ts, true)
		if err != nil {
			return err
		}
		for j, i := range killed {
			o, t := nouts[j], ts[j]
			if t.locked && !(o.lockedIn && o.lockedAt == t.start) || !t.locked && (len(o.score) == 0 || o.times[0] != t.start || o.score[0] <= z) {
				return fmt.Errorf("replay of a copy did not reproduce its starting point at %v (backlog %d, score above %d)", t.start, o.first, z)
			}
			parts[i], outs[i] = t, o
		}
		r.Runs += len(killed)
		p *= st.Conditional
		r.Stages = append(r.Stages, st)
	}
	locked := 0
	for _, o := range outs {
		if o.lockedIn {
			locked++
		}
	}
	fin := Stage{Level: e.opt.Level, LockIn: true, Starts: n, Runs: n, Reached: locked, Conditional: float64(locked) / float64(n)}
	r.Stages = append(r.Stages, fin)
	r.Probability = p * fin.Conditional
	return nil
}

func successes(opt Options) int {
	if opt.Successes == 0 {
		return DefaultSuccesses
	}
	return opt.Successes
}

// fixedSuccess is one splitting estimate with a fixed number of
// successes (Amrein and Künsch 2011) at every backlog 1..Level: stage l
// runs trajectories, in batches of m, each restarted by replay from one
// of stage l-1's m crossings chosen at random (stage 1 from the start)
// and stopped once its backlog reaches l, until m of them have reached
// it. With n runs used, (m-1)/(n-1) is an unbiased estimate of the
// stage's conditional probability (inverse binomial sampling), and the
// estimate is the product. The levels are fixed in advance, so a hard
// level gets as many runs as it needs instead of dying out (where
// fixed-effort splitting and AMS with a hundred particles give 0).
func (e *estimator) fixedSuccess(r *Result) error {
	m := successes(e.opt)
	pick := rand.New(rand.NewPCG(run.ReplicationSeed(e.seed, e.next), 0x6673))
	e.next++
	var starts []traj
	p := 1.0
	for lvl := int64(1); lvl <= e.opt.Level; lvl++ {
		st := Stage{Level: lvl, LockIn: lvl == e.opt.Level, Starts: len(starts)}
		var succ []traj
		for len(succ) < m {
			if st.Runs >= MaxRuns {
				return fmt.Errorf("level %d: %d of %d runs reached it, fewer than the %d successes", lvl, len(succ), st.Runs, m)
			}
			ts := make([]traj, m)
			for i := range ts {
				if lvl == 1 {
					ts[i] = traj{seed: run.ReplicationSeed(e.seed, e.next)}
				} else {
					s := starts[pick.IntN(len(starts))]
					ts[i] = s
					ts[i].branches = append(slices.Clone(s.branches), runner.Branch{At: s.start, Seed: run.ReplicationSeed(e.seed, e.next)})
					st.ReplayedS += s.start.Seconds()
				}
				e.next++
			}
			outs, err := e.simulateTo(ts, true, lvl)
			if err != nil {
				return err
			}
			r.Runs += len(ts)
			for i, o := range outs {
				t := ts[i]
				if lvl > 1 && o.first < lvl-1 {
					return fmt.Errorf("replay of run %d did not reproduce its starting point at %v (backlog %d, level %d)", i, t.start, o.first, lvl-1)
				}
				if len(succ) == m {
					continue // past the m-th success: run, but not counted
				}
				st.Runs++
				if x := slices.IndexFunc(o.backlog, func(v int64) bool { return v >= lvl }); x >= 0 {
					succ = append(succ, traj{seed: t.seed, branches: t.branches, start: o.times[x]})
				}
			}
		}
		st.Reached = m
		st.Conditional = 1
		if st.Runs > 1 {
			st.Conditional = float64(m-1) / float64(st.Runs-1)
		}
		p *= st.Conditional
		r.Stages = append(r.Stages, st)
		starts = succ
	}
	r.Probability = p
	return nil
}
