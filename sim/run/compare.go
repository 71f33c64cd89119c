package run

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// CompareOptions control a comparison.
type CompareOptions struct {
	// OutDir is a Batch's output directory (Stage); empty means
	// out/<name>/sweep or compare. Compare and RunSweep write their sink.
	OutDir string
	// Jobs is the number of runs executed in parallel; 0 means
	// runtime.NumCPU(). The results do not depend on it.
	Jobs int
	// Seed, if non-nil, overrides the experiment's seed.
	Seed *uint64
	// Replications, if > 0, overrides the experiment's replications.
	Replications int
	// Plots draws the figures; SVG has a Batch write each as SVG too.
	Plots, SVG bool
	// Series says which runs' time series Compare writes to
	// timeseries.csv: experiment.SeriesAll, SeriesFirst (replication 0 of
	// each variant) or SeriesNone (no file). Empty means the experiment's
	// compare_series, else DefaultSeries. Sweeps ignore it.
	Series string
	// Progress, if not nil, is called after each finished run with the
	// number done and the total. It is called from one goroutine at a time.
	Progress func(done, total int)
	// Budget bounds the whole comparison (every run together); the zero
	// Budget is unbounded.
	Budget runner.Budget
	// KeepRuns keeps every run's whole result in Comparison.Runs (tests
	// and tools that inspect each run); memory then grows with
	// replications x series length.
	KeepRuns bool

	spool string // folder for every run's series rows (Series "all"); set by Compare
}

// Arm is one variant of a comparison: the base experiment or a
// [[variant]].
type Arm struct {
	Name, Description string
	Model             topology.Config
}

// Comparison is every run of every variant, in a fixed order.
type Comparison struct {
	Name         string
	Seed         uint64
	Replications int
	Arms         []Arm
	// Runs[v][r] is variant v's replication r: kept for r = 0 only (nil
	// otherwise) unless CompareOptions.KeepRuns.
	Runs [][]*topology.Result
	// Headlines[v][r] are the headline metrics of Runs[v][r].
	Headlines [][]Headline
	// Records[v][r] is what compare.json lists of Runs[v][r].
	Records [][]RunRecord

	done [][]bool // done[v][r]: the run finished
	// latency holds each arm's answered latencies over every finished
	// replication (after a stop, also those past the replications kept).
	latency []metrics.Histogram
	overlay []overlayMean // each arm's overlay series, mean over replications
	// replicaLines[v][r] is replication r's goodput, folded (replicalines.go).
	replicaLines [][]replicaLine
}

// ReplicationSeed is the seed of replication r: the experiment's seed for
// r = 0 (so that replication 0 is exactly what ressim run computes), and a
// SplitMix64 mix of (seed, r) otherwise. Every variant uses the same seeds,
// so that differences between variants are paired (common random
// numbers).
func ReplicationSeed(seed uint64, r int) uint64 {
	if r == 0 {
		return seed
	}
	x := seed + 0x9e3779b97f4a7c15*uint64(r)
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return (x ^ (x >> 31)) & (1<<62 - 1)
}

// Arms returns the base experiment followed by its variants.
func Arms(exp *experiment.Experiment) []Arm {
	arms := []Arm{{Name: "base", Description: exp.Description, Model: exp.Model}}
	for _, v := range exp.Variants {
		arms = append(arms, Arm{Name: v.Name, Description: v.Description, Model: v.Model})
	}
	return arms
}

// seedAndReps is the seed (opt.Seed, else the file's) and the number of
// replications (opt.Replications, else the file's, at least 1).
func (opt CompareOptions) seedAndReps(exp *experiment.Experiment) (seed uint64, reps int) {
	seed = exp.Model.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	reps = exp.Replications
	if opt.Replications > 0 {
		reps = opt.Replications
	}
	return seed, max(reps, 1)
}

// RunAll runs every arm's replications, opt.Jobs at a time, and returns
// them in (arm, replication) order. It stops early, returning the whole
// replications finished so far and the reason, when ctx is cancelled or
// opt.Budget stops a run (an error wrapping runner.ErrBudget); the runs in
// progress are then abandoned.
//
// Memory grows with the arms and replications' small records, not with
// their results: only replication 0 of each arm is kept whole (unless
// opt.KeepRuns), the overlay figure's two series are folded into a mean
// in replication order as runs finish, the first 50 replications' goodput
// is kept folded to at most 600 values each (replicalines.go), and every
// run's time series goes,
// with opt.Series "all", to a spool file in Compare's staging folder.
func RunAll(ctx context.Context, exp *experiment.Experiment, opt CompareOptions) (*Comparison, error) {
	c := newComparison(exp, opt)
	seed, reps, n := c.Seed, c.Replications, len(c.Arms)
	plan := c.plan()
	for i := range plan {
		if opt.spool != "" { // every replication's series goes to timeseries.csv
			plan[i].Writes = runner.WritesSeries
		}
	}
	if err := opt.Budget.Check(plan); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := runner.NewMeter(ctx, opt.Budget, c.models()...)
	var mu sync.Mutex
	var firstErr, stopErr error
	// Jobs in replication-major order, so that a stopped comparison keeps
	// whole replications; within one, the costliest variants first.
	order := costOrder(c.models())
	_, cancelled := Parallel(ctx, n*reps, opt.Jobs, func(i int) {
		arm, rep := order[i%n], i/n
		cfg := c.Arms[arm].Model
		cfg.Seed = ReplicationSeed(seed, rep)
		res, rec, err := runRecorded(cfg, rep, g, opt.spool, arm, c.Arms[arm].Name)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			c.keep(arm, rep, res, rec, opt.KeepRuns)
		case IsStop(err):
			if stopErr == nil {
				stopErr = err
			}
			cancel()
		case firstErr == nil:
			firstErr = fmt.Errorf("variant %q replication %d: %w", c.Arms[arm].Name, rep, err)
			cancel()
		}
	}, opt.Progress)
	if firstErr != nil {
		return nil, firstErr
	}
	if stopErr == nil {
		stopErr = cancelled
	}
	if stopErr != nil {
		c.truncate()
		return c, stopErr
	}
	return c, nil
}

// newComparison sets up the comparison of exp under opt (seed,
// replications) with its records allocated. RunAll and CompareBatch (the
// shards and their merge) all start from it.
func newComparison(exp *experiment.Experiment, opt CompareOptions) *Comparison {
	seed, reps := opt.seedAndReps(exp)
	c := &Comparison{Name: exp.Name, Seed: seed, Replications: reps, Arms: Arms(exp)}
	c.alloc(c.Replications)
	return c
}

// plan is every model the comparison runs, with its count.
func (c *Comparison) plan() []runner.PlannedRun {
	var p []runner.PlannedRun
	for _, a := range c.Arms {
		p = append(p, runner.PlannedRun{Model: a.Model, Times: c.Replications})
	}
	return p
}

func (c *Comparison) models() []topology.Config {
	var cfgs []topology.Config
	for _, a := range c.Arms {
		cfgs = append(cfgs, a.Model)
	}
	return cfgs
}

func (c *Comparison) alloc(reps int) {
	n := len(c.Arms)
	c.Runs = make([][]*topology.Result, n)
	c.Headlines = make([][]Headline, n)
	c.Records = make([][]RunRecord, n)
	c.done = make([][]bool, n)
	c.latency = make([]metrics.Histogram, n)
	c.overlay = make([]overlayMean, n)
	c.replicaLines = make([][]replicaLine, n)
	for i := range c.Runs {
		c.Runs[i] = make([]*topology.Result, reps)
		c.Headlines[i] = make([]Headline, reps)
		c.Records[i] = make([]RunRecord, reps)
		c.done[i] = make([]bool, reps)
	}
}

// keep records a finished run: its record always, its result only for
// replication 0 (or with keepAll), its latencies in the arm's histogram
// and its overlay series in the arm's mean. Called under RunAll's lock.
func (c *Comparison) keep(arm, rep int, res *topology.Result, rec RunRecord, keepAll bool) {
	if rep == 0 || keepAll {
		c.Runs[arm][rep] = res
	}
	c.keepUnit(arm, rep, unitOfRun(res, rec))
}

// unitOfRun is what a comparison keeps of every run: its record, its
// clients' answered latencies merged, and its overlay series.
func unitOfRun(res *topology.Result, rec RunRecord) Unit {
	d := Unit{Record: rec, latency: &metrics.Histogram{}, overlay: overlayColumns(res)}
	for _, cl := range res.Clients {
		d.latency.Merge(cl.Latency)
	}
	return d
}

// keepUnit adds a run's unit data to its arm: the unsharded comparison
// and a merge (Batch.Add) both go through it, so the histograms and the
// overlay means are built by the same operations.
func (c *Comparison) keepUnit(arm, rep int, d Unit) {
	c.Headlines[arm][rep] = d.Record.Headline
	c.Records[arm][rep] = d.Record
	c.done[arm][rep] = true
	c.latency[arm].Merge(d.latency)
	c.overlay[arm].add(rep, d.overlay)
	c.keepReplicaLine(arm, rep, d.overlay[overlayGoodput])
}

// IsStop reports whether err stopped a run from outside: a budget or a
// cancellation, which keep what finished, rather than a failure.
func IsStop(err error) bool {
	return errors.Is(err, runner.ErrBudget) || errors.Is(err, context.Canceled)
}

// truncate keeps only the replications that every arm finished.
func (c *Comparison) truncate() {
	done := c.Replications
	for _, d := range c.done {
		for r, ok := range d {
			if !ok {
				done = min(done, r)
				break
			}
		}
	}
	c.Replications = done
	for i := range c.Runs {
		c.Runs[i] = c.Runs[i][:done]
		c.Headlines[i] = c.Headlines[i][:done]
		c.Records[i] = c.Records[i][:done]
		c.done[i] = c.done[i][:done]
	}
}

// runRecorded runs a replication and records it; with spool set, it also
// writes the run's time-series rows to its spool file.
func runRecorded(cfg topology.Config, rep int, g *runner.Meter, spool string, arm int, name string) (*topology.Result, RunRecord, error) {
	res, err := g.Run(cfg, runner.Options{})
	if err != nil {
		return nil, RunRecord{}, err
	}
	rec, err := NewRunRecord(rep, res)
	if err != nil {
		return nil, RunRecord{}, err
	}
	if spool != "" {
		if err := spoolSeries(spool, arm, rep, res, name); err != nil {
			return nil, RunRecord{}, err
		}
	}
	return res, rec, nil
}

// Headline holds the metrics a comparison reports for one run. Every
// float field is one per-run key of the headline metric contract
// (sim/headline), read through headlineField; the bools are flags the
// getters and the locked-in probability read. A field added here needs
// its key there (TestEveryHeadlineFieldHasAKey).
type Headline struct {
	// Goodput is full answers within the deadline per second, all clients.
	Goodput float64
	// P99 is the 99th percentile of the users' latency (answered
	// requests), seconds; NaN if nothing was answered.
	P99 float64
	// SuccessRatio is (good + degraded) / sent.
	SuccessRatio float64
	// Amplification is the largest attempts-per-user-request of any
	// service.
	Amplification float64
	// WastedWork is the worker-seconds spent on requests nobody waited
	// for, all services.
	WastedWork float64
	// Recovery is the first fault's recovery time in seconds (0 if
	// unaffected); HasRecovery says whether it recovered at all.
	Recovery    float64
	HasRecovery bool
	// LockedIn says the first fault's verdict was locked_in or relapsed.
	LockedIn bool
	// P99Outcome is the 99th percentile of the time to the outcome of
	// every user request (topology.ClientResult.OutcomeLatency), seconds;
	// NaN if nothing was sent.
	P99Outcome float64
	// GoodputShare is good / sent, all clients.
	GoodputShare float64
	// InFlightAtEnd is the user requests still unanswered at the end.
	InFlightAtEnd float64
	// HasFault says the experiment has a fault to judge.
	HasFault bool
}

// NewHeadline extracts the headline metrics of a run.
func NewHeadline(res *topology.Result) Headline {
	var h Headline
	var lat, out metrics.Histogram
	var sent, ok uint64
	for _, c := range res.Clients {
		h.Goodput += c.Goodput
		sent += c.Sent
		ok += c.Good + c.Degraded
		lat.Merge(c.Latency)
		out.Merge(c.OutcomeLatency)
	}
	h.P99, h.P99Outcome = nan(), nan()
	if lat.Count() > 0 {
		h.P99 = float64(lat.Quantile(0.99)) / 1e9
	}
	if out.Count() > 0 {
		h.P99Outcome = float64(out.Quantile(0.99)) / 1e9
	}
	h.SuccessRatio, h.GoodputShare = nan(), nan()
	if sent > 0 {
		h.SuccessRatio = float64(ok) / float64(sent)
		h.GoodputShare = goodShare(res)
	}
	h.InFlightAtEnd = float64(res.InFlightAtEnd)
	for _, s := range res.Services {
		h.Amplification = max(h.Amplification, s.Amplification)
		h.WastedWork += s.WastedWork.Seconds()
	}
	if len(res.Faults) > 0 {
		h.HasFault = true
		r := res.Faults[0].Recovery
		switch r.Verdict {
		case topology.VerdictRecovered, topology.VerdictUnaffected:
			h.Recovery, h.HasRecovery = r.Time.Seconds(), true
		case topology.VerdictLockedIn, topology.VerdictRelapsed:
			h.LockedIn = true
		}
	}
	return h
}
