package run

import (
	"fmt"
	"path/filepath"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Batch is the runs of a sweep or a comparison as numbered units, for
// the shard room (sim/run/shard), which runs them in parts and merges
// them: unit u is replication u / len(Models) of model u % len(Models),
// the order in which RunSweep and Compare hand out their runs. A merge
// adds every unit (Add) to the outputs staged (Stage) and commits them
// (Commit): the same records in the same order, written by the same code
// as the unsharded command, give the same bytes.
type Batch struct {
	// Kind is "sweep" or "compare"; Name the experiment's name.
	Kind, Name string
	// Seed and Replications are the batch's (the options', else the
	// file's).
	Seed         uint64
	Replications int
	// Series is a comparison's timeseries.csv mode (first, none or all).
	Series string
	// Models are the sweep's cells in sweep.json order, or the
	// comparison's variants in compare.json order.
	Models []topology.Config

	exp   *experiment.Experiment
	sweep *SweepResult
	cells []sweepCell
	cmp   *Comparison
	sink  *output.Folder
	swOut *SweepOutput
	cmOut *CompareOutput
}

// SweepBatch is the batch of exp's sweep under opt (seed, replications),
// set up as RunSweep sets it up.
func SweepBatch(exp *experiment.Experiment, opt CompareOptions) (*Batch, error) {
	res, cells, err := newSweep(exp, opt)
	if err != nil {
		return nil, err
	}
	return &Batch{Kind: "sweep", Name: exp.Name, Seed: res.Seed, Replications: res.Replications,
		Models: cellModels(cells), exp: exp, sweep: res, cells: cells}, nil
}

// CompareBatch is the batch of exp's comparison under opt (seed,
// replications, series), set up as Compare sets it up.
func CompareBatch(exp *experiment.Experiment, opt CompareOptions) *Batch {
	c := newComparison(exp, opt)
	return &Batch{Kind: "compare", Name: exp.Name, Seed: c.Seed, Replications: c.Replications,
		Series: seriesMode(exp, opt), Models: c.models(), exp: exp, cmp: c}
}

// RunUnit runs unit u under g and returns its result and what its line
// keeps of it: its record, and for a comparison its latencies and
// overlay series.
func (b *Batch) RunUnit(u int, g *runner.Meter) (*topology.Result, Unit, error) {
	k := len(b.Models)
	rep, cfg := u/k, b.Models[u%k]
	cfg.Seed = ReplicationSeed(b.Seed, rep)
	res, rec, err := runRecorded(cfg, rep, g, "", 0, "")
	switch {
	case err != nil:
		return nil, Unit{}, err
	case b.cmp != nil:
		return res, unitOfRun(res, rec), nil
	}
	return res, Unit{Record: rec}, nil
}

// CostOrder is the indices of the models from the most to the least
// costly by runner.Estimate's events (ties by index): the order in which
// the unsharded command starts each replication's runs.
func (b *Batch) CostOrder() []int { return costOrder(b.Models) }

// Label names unit u for people: its replication and variant, and for a
// sweep its cell (indices into the axes' values, as sweep.json's
// x_index, y_index).
func (b *Batch) Label(u int) string {
	k := len(b.Models)
	if b.cmp != nil {
		return fmt.Sprintf("replication %d of variant %q", u/k, b.cmp.Arms[u%k].Name)
	}
	c := b.cells[u%k]
	cell := fmt.Sprint(c.x)
	if b.sweep.Sweep.Y != nil {
		cell = fmt.Sprintf("%d,%d", c.x, c.y)
	}
	return fmt.Sprintf("replication %d of variant %q, cell %s", u/k, b.sweep.Variants[c.v], cell)
}

// Stage stages the batch's output folder, opt.OutDir (default
// out/<name>/sweep or compare), which Commit fills and Abort removes.
// A sweep's units are added after Stage (its records wait in the staging
// folder), a comparison's before or after.
func (b *Batch) Stage(opt CompareOptions) error {
	b.sink = output.NewFolder(opt.OutDir, opt.SVG)
	if b.cmp != nil {
		if err := b.sink.Open(filepath.Join(DefaultOutDir(b.Name), "compare")); err != nil {
			return err
		}
		b.cmOut = &CompareOutput{Comparison: b.cmp, Dir: b.sink.Dir}
		return nil
	}
	if err := b.sink.Open(sweepDir(b.Name, "")); err != nil {
		return err
	}
	b.swOut = &SweepOutput{Result: b.sweep, Dir: b.sink.Dir}
	var err error
	b.sweep.spool, err = newCellSpool(b.sink.Scratch())
	return err
}

// Add adds unit u's data to the outputs. The caller checks that d is
// the unit's (its replication, and its kind).
func (b *Batch) Add(u int, d Unit) error {
	k := len(b.Models)
	if b.cmp != nil {
		b.cmp.keepUnit(u%k, u/k, d)
		return nil
	}
	return b.sweep.spool.add(u%k, d.Record)
}

// KeepRun keeps the whole result of a comparison's unit u if the
// figures and timeseries.csv need it (replication 0 of a variant).
func (b *Batch) KeepRun(u int, res *topology.Result) {
	if b.cmp != nil && u < len(b.Models) {
		b.cmp.Runs[u][0] = res
	}
}

// Commit writes the outputs into the staging folder and commits it
// whole, with opt.Plots and opt.SVG, and returns them: a sweep's or a
// comparison's (the other is nil).
func (b *Batch) Commit(opt CompareOptions) (*SweepOutput, *CompareOutput, error) {
	if b.cmp == nil {
		if err := b.swOut.commit(b.sink, opt); err != nil {
			return nil, nil, err
		}
		return b.swOut, nil, nil
	}
	if err := b.cmOut.write(b.sink, opt, b.Series); err != nil {
		return nil, nil, err
	}
	if err := b.sink.Commit(); err != nil {
		return nil, nil, err
	}
	return nil, b.cmOut, nil
}

// Abort removes the staging folder unless Commit committed it.
func (b *Batch) Abort() {
	if b.sink != nil {
		b.sink.Abort()
	}
}
