package sweep

import (
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// Batch is a sweep's runs as numbered units (run.Batch), for the shard
// room: set up as Run sets it up, its units added after Stage (their
// records wait in the staging folder), its outputs written by the same
// code as Run's.
type Batch struct {
	*run.Batch
	u *units
}

// units is what a sweep does with its units (run.Units).
type units struct {
	res   *Result
	cells []cell
	sink  *output.Folder
	out   *Output
}

// NewBatch is the batch of exp's sweep under opt (seed, replications),
// set up as Run sets it up.
func NewBatch(exp *experiment.Experiment, opt run.CompareOptions) (*Batch, error) {
	res, cells, err := newSweep(exp, opt)
	if err != nil {
		return nil, err
	}
	u := &units{res: res, cells: cells}
	return &Batch{Batch: &run.Batch{Kind: "sweep", Name: exp.Name, Seed: res.Seed, Replications: res.Replications,
		Models: cellModels(cells), Units: u}, u: u}, nil
}

// Commit writes the outputs into the staging folder (Stage) and commits
// it whole, with opt.Plots and opt.SVG.
func (b *Batch) Commit(opt run.CompareOptions) (*Output, error) {
	if err := b.u.out.commit(b.u.sink, opt); err != nil {
		return nil, err
	}
	return b.u.out, nil
}

func (u *units) Unit(_ *topology.Result, rec run.RunRecord) run.Unit { return run.Unit{Record: rec} }

func (u *units) Label(i int) string {
	k := len(u.cells)
	c := u.cells[i%k]
	at := fmt.Sprint(c.x)
	if u.res.Sweep.Y != nil {
		at = fmt.Sprintf("%d,%d", c.x, c.y)
	}
	return fmt.Sprintf("replication %d of variant %q, cell %s", i/k, u.res.Variants[c.v], at)
}

func (u *units) Stage(opt run.CompareOptions) error {
	u.sink = output.NewFolder(opt.OutDir, opt.SVG)
	if err := u.sink.Open(sweepDir(u.res.Name, "")); err != nil {
		return err
	}
	u.out = &Output{Result: u.res, Dir: u.sink.Dir}
	var err error
	u.res.spool, err = newCellSpool(u.sink.Scratch())
	return err
}

func (u *units) Add(i int, d run.Unit) error { return u.res.spool.add(i%len(u.cells), d.Record) }

func (u *units) KeepRun(int, *topology.Result) {}

func (u *units) Abort() {
	if u.sink != nil {
		u.sink.Abort()
	}
}
