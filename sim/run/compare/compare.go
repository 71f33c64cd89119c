package compare

import (
	"context"
	"fmt"
	"sync"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Comparison is every run of every variant, in a fixed order.
type Comparison struct {
	Name         string
	Seed         uint64
	Replications int
	Arms         []run.Arm
	// Runs[v][r] is variant v's replication r: kept for r = 0 only (nil
	// otherwise) unless CompareOptions.KeepRuns.
	Runs [][]*topology.Result
	// Headlines[v][r] are the headline metrics of Runs[v][r].
	Headlines [][]run.Headline
	// Records[v][r] is what compare.json lists of Runs[v][r].
	Records [][]run.RunRecord

	done [][]bool // done[v][r]: the run finished
	// latency holds each arm's answered latencies over every finished
	// replication (after a stop, also those past the replications kept).
	latency []metrics.Histogram
	overlay []overlayMean // each arm's overlay series, mean over replications
	// replicaLines[v][r] is replication r's goodput, folded (replicalines.go).
	replicaLines [][]replicaLine
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
// with opt.Series "all", to a spool file in Run's staging folder.
func RunAll(ctx context.Context, exp *experiment.Experiment, opt run.CompareOptions) (*Comparison, error) {
	return runAll(ctx, exp, opt, "")
}

// runAll is RunAll, spooling every run's series rows into the folder
// spool unless it is "".
func runAll(ctx context.Context, exp *experiment.Experiment, opt run.CompareOptions, spool string) (*Comparison, error) {
	c := newComparison(exp, opt)
	seed, reps, n := c.Seed, c.Replications, len(c.Arms)
	plan := c.plan()
	for i := range plan {
		if spool != "" { // every replication's series goes to timeseries.csv
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
	order := run.CostOrder(c.models())
	_, cancelled := run.Parallel(ctx, n*reps, opt.Jobs, func(i int) {
		arm, rep := order[i%n], i/n
		cfg := c.Arms[arm].Model
		cfg.Seed = run.ReplicationSeed(seed, rep)
		var after func(*topology.Result) error
		if spool != "" {
			name := c.Arms[arm].Name
			after = func(res *topology.Result) error { return spoolSeries(spool, arm, rep, res, name) }
		}
		res, rec, err := run.RunRecorded(cfg, rep, g, after)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			c.keep(arm, rep, res, rec, opt.KeepRuns)
		case run.IsStop(err):
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
func newComparison(exp *experiment.Experiment, opt run.CompareOptions) *Comparison {
	seed, reps := opt.SeedAndReps(exp)
	c := &Comparison{Name: exp.Name, Seed: seed, Replications: reps, Arms: run.Arms(exp)}
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
	c.Headlines = make([][]run.Headline, n)
	c.Records = make([][]run.RunRecord, n)
	c.done = make([][]bool, n)
	c.latency = make([]metrics.Histogram, n)
	c.overlay = make([]overlayMean, n)
	c.replicaLines = make([][]replicaLine, n)
	for i := range c.Runs {
		c.Runs[i] = make([]*topology.Result, reps)
		c.Headlines[i] = make([]run.Headline, reps)
		c.Records[i] = make([]run.RunRecord, reps)
		c.done[i] = make([]bool, reps)
	}
}

// keep records a finished run: its record always, its result only for
// replication 0 (or with keepAll), its latencies in the arm's histogram
// and its overlay series in the arm's mean. Called under RunAll's lock.
func (c *Comparison) keep(arm, rep int, res *topology.Result, rec run.RunRecord, keepAll bool) {
	if rep == 0 || keepAll {
		c.Runs[arm][rep] = res
	}
	c.keepUnit(arm, rep, run.ComparedUnit(res, rec))
}

// keepUnit adds a run's unit data to its arm: the unsharded comparison
// and a merge (Batch.Add) both go through it, so the histograms and the
// overlay means are built by the same operations.
func (c *Comparison) keepUnit(arm, rep int, d run.Unit) {
	c.Headlines[arm][rep] = d.Record.Headline
	c.Records[arm][rep] = d.Record
	c.done[arm][rep] = true
	c.latency[arm].Merge(d.Latency)
	c.overlay[arm].add(rep, d.Overlay)
	c.keepReplicaLine(arm, rep, d.Overlay[run.OverlayGoodput])
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
