package sweep

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sync"

	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Sweep output files.
const (
	CSVFile      = "sweep.csv"
	JSONFile     = "sweep.json"
	MarkdownFile = "sweep.md"
)

// Result is every cell of a parameter grid, for every swept variant.
type Result struct {
	Name         string
	Seed         uint64
	Replications int
	Sweep        *experiment.Sweep
	Variants     []string

	// nx, ny are the number of X and Y values (ny is 1 with one axis).
	// Cell (v, y, x) is number (v*ny + y)*nx + x, in sweep.json order.
	nx, ny int
	// spool holds every finished run's record, by cell, on disk in the
	// staging folder until the outputs are written: the sweep's memory
	// grows with its cells, not with cells x replications.
	spool *cellSpool

	// capacity[v] is variant v's capacity for the client whose rate the
	// x axis sets, if that is what it sets and every cell agrees on it.
	capacity []*Capacity
}

// CellStat is the swept metric of one cell.
type CellStat struct {
	Variant string
	v       int // index into Result.Variants
	X, Y    int
	N       int
	// Value is the metric's mean over the replications (for
	// headline.LockedInProbability, the share locked in); CI95 its 95 %
	// interval (Student t, or Wilson for a probability).
	Value float64
	CI95  analysis.Interval

	locked  int  // replications whose first fault left them locked in
	faulted bool // the cell's runs have a fault to judge
}

// Output is what Run produced.
type Output struct {
	Result *Result
	Stats  []CellStat
	Dir    string
	Files  []string
	// Warnings are the figures that could not be drawn.
	Warnings []string
}

// Run runs the experiment's [sweep] grid and writes its table and
// plots into sink: a heatmap of the metric over the two axes per variant
// (the phase diagram), or, for one axis, the metric against it with a
// line per variant. An interactive sink (Memory) always gets the figures.
func Run(ctx context.Context, exp *experiment.Experiment, opt run.CompareOptions, sink output.Sink) (*Output, error) {
	res, cells, g, err := startSweep(ctx, exp, opt)
	if err != nil {
		return nil, err
	}
	if err := sink.Open(sweepDir(exp.Name, "")); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	out := &Output{Result: res, Dir: sink.OutDir()}
	if res.spool, err = newCellSpool(sink.Scratch()); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	opt.Plots = opt.Plots || sink.Interactive()
	runErr := res.runCells(ctx, cells, opt, g)
	if runErr != nil && !run.IsStop(runErr) {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, runErr)
	}
	if res.Replications == 0 {
		return out, runErr
	}
	if err := out.commit(sink, opt); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	return out, runErr
}

// startSweep sets the sweep up (newSweep), checks its whole plan against
// opt.Budget and returns the meter its runs share.
func startSweep(ctx context.Context, exp *experiment.Experiment, opt run.CompareOptions) (*Result, []cell, *runner.Meter, error) {
	res, cells, err := newSweep(exp, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	plan := make([]runner.PlannedRun, len(cells))
	cfgs := make([]topology.Config, len(cells))
	for i, c := range cells {
		plan[i], cfgs[i] = runner.PlannedRun{Model: c.cfg, Times: res.Replications, OnDisk: true}, c.cfg
	}
	if err := opt.Budget.Check(plan); err != nil {
		return nil, nil, nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	return res, cells, runner.NewMeter(ctx, opt.Budget, cfgs...), nil
}

// sweepDir is the sweep's output folder: dir, or out/<name>/sweep.
func sweepDir(name, dir string) string {
	if dir == "" {
		return filepath.Join(run.DefaultOutDir(name), "sweep")
	}
	return dir
}

// newSweep sets up the sweep of exp under opt (seed, replications,
// variants) and builds every cell's model.
// RunSweep and SweepBatch (the shards and their merge) all start from
// it, so that they agree on the grid and the order of the cells.
func newSweep(exp *experiment.Experiment, opt run.CompareOptions) (*Result, []cell, error) {
	sw := exp.Sweep
	if sw == nil {
		return nil, nil, fmt.Errorf("sweep %s: the file has no [sweep] table", exp.Name)
	}
	seed, reps := opt.SeedAndReps(exp)
	variants := sw.Variants
	if len(variants) == 0 {
		variants = []string{"base"}
	}
	nx, ny := len(sw.X.Values), 1
	if sw.Y != nil {
		ny = len(sw.Y.Values)
	}
	res := &Result{Name: exp.Name, Seed: seed, Replications: reps, Sweep: sw, Variants: variants, nx: nx, ny: ny}
	cells, err := sweepCells(exp, variants, nx, ny)
	if err != nil {
		return nil, nil, err
	}
	res.capacity = sweepCapacity(sw, cells, len(variants))
	return res, cells, nil
}

// commit writes the sweep's files into sink and commits it whole. The
// unsharded sweep and a merge (Batch.Commit) both end here: the same
// records in the same order give the same bytes.
func (out *Output) commit(sink output.Sink, opt run.CompareOptions) error {
	if err := out.write(sink, opt); err != nil {
		return err
	}
	return sink.Commit()
}

// cell is one cell of the grid for one variant, and its model.
type cell struct {
	cfg     topology.Config
	v, y, x int
}

// sweepCells builds every cell's configuration up front: errors surface
// before any run, and the runs only read them.
func sweepCells(exp *experiment.Experiment, variants []string, nx, ny int) ([]cell, error) {
	var cells []cell
	for v, name := range variants {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				cfg, err := run.CellModel(exp, name, x, y)
				if err != nil {
					return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
				}
				cells = append(cells, cell{cfg, v, y, x})
			}
		}
	}
	return cells, nil
}

func cellModels(cells []cell) []topology.Config {
	models := make([]topology.Config, len(cells))
	for i, c := range cells {
		models[i] = c.cfg
	}
	return models
}

// runCells runs every cell's replications, adding each run's record to
// r.spool as it finishes: replication by replication, the costliest cells
// of each first (costOrder). On a stop (cancellation, budget) it keeps the
// replications that every cell finished and returns the reason.
func (r *Result) runCells(ctx context.Context, cells []cell, opt run.CompareOptions, g *runner.Meter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g = g.Within(ctx)
	var mu sync.Mutex
	var firstErr error
	done := make([]int, r.Replications) // cells finished per replication
	order := run.CostOrder(cellModels(cells))
	_, cancelled := run.Parallel(ctx, len(cells)*r.Replications, opt.Jobs, func(i int) {
		rep, k := i/len(cells), order[i%len(cells)]
		cfg := cells[k].cfg
		cfg.Seed = run.ReplicationSeed(r.Seed, rep)
		_, rec, err := run.RunRecorded(cfg, rep, g, nil)
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			err = r.spool.add(k, rec)
		}
		if err != nil {
			if firstErr == nil || (run.IsStop(firstErr) && !run.IsStop(err)) {
				firstErr = err
			}
			cancel()
			return
		}
		done[rep]++
	}, opt.Progress)
	if firstErr == nil {
		firstErr = cancelled
	}
	if firstErr != nil {
		whole := 0
		for whole < len(done) && done[whole] == len(cells) {
			whole++
		}
		r.Replications = whole // the spool skips the later ones
	}
	return firstErr
}

// write writes the sweep's files into sink.
func (out *Output) write(sink output.Sink, opt run.CompareOptions) error {
	res := out.Result
	stats, err := res.stats()
	if err != nil {
		return err
	}
	out.Stats = stats
	paths, err := output.WriteFiles(sink, []output.File{
		{Name: CSVFile, Fill: func(w io.Writer) error { return writeSweepCSV(w, res, out.Stats) }},
		{Name: JSONFile, Fill: func(w io.Writer) error { return writeSweepJSON(w, res, out.Stats) }},
		{Name: MarkdownFile, Fill: func(w io.Writer) error { return WriteTable(w, res, out.Stats) }},
	})
	if err != nil {
		return err
	}
	if err := res.spool.remove(); err != nil {
		return err
	}
	out.Files = paths
	if opt.Plots {
		figs, warn := output.DrawFigures(sink, res.figures(out.Stats))
		out.Files = append(out.Files, figs...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

// stats reads back each cell's headlines, one cell at a time, and
// summarises the swept metric over its replications.
func (r *Result) stats() ([]CellStat, error) {
	var out []CellStat
	m := run.MetricOf(r.Sweep.Metric)
	for v, name := range r.Variants {
		for y := 0; y < r.ny; y++ {
			for x := 0; x < r.nx; x++ {
				hs := make([]run.Headline, 0, r.Replications)
				err := r.spool.each(r.cell(v, y, x), r.Replications, func(rec run.RunRecord) error {
					hs = append(hs, rec.Headline)
					return nil
				})
				if err != nil {
					return nil, err
				}
				out = append(out, cellStat(m, name, v, y, x, hs))
			}
		}
	}
	return out, nil
}

// cell is the number of cell (v, y, x), in sweep.json order.
func (r *Result) cell(v, y, x int) int { return (v*r.ny+y)*r.nx + x }

// cellStat is metric m (nil: the locked-in probability) over the
// headlines hs of one cell.
func cellStat(m *run.MetricDef, variant string, v, y, x int, hs []run.Headline) CellStat {
	cs := CellStat{Variant: variant, v: v, X: x, Y: y, N: len(hs), locked: run.LockedInCount(hs)}
	cs.faulted = len(hs) > 0 && hs[0].HasFault
	if m == nil {
		k := cs.locked
		cs.Value = float64(k) / float64(max(len(hs), 1))
		cs.CI95 = analysis.Wilson(k, len(hs))
		return cs
	}
	s := analysis.Summarize(run.Finite(m.Values(hs)))
	cs.Value, cs.CI95 = s.Mean, s.CI95
	if s.N == 0 {
		cs.Value = math.NaN()
	}
	return cs
}

// lockedInSweepUnit is the locked-in probability's unit in a sweep's
// outputs (sweep.md, sweep.csv, sweep.json, the figures), where the
// comparison's say the contract's unit, "ratio": the sweep's formats said
// "probability" first, and keep it.
const lockedInSweepUnit = "probability"

// unit is the swept metric's unit, as the sweep's outputs write it.
func (r *Result) unit() string {
	if r.Sweep.Metric == headline.LockedInProbability {
		return lockedInSweepUnit
	}
	return r.Sweep.Metric.Unit()
}

func indices(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

func valueLabels(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}
