package compare

import (
	"fmt"
	"path/filepath"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// Batch is a comparison's runs as numbered units (run.Batch), for the
// shard room: set up as Run sets it up, its units added in any order,
// its outputs written by the same code as Run's.
type Batch struct {
	*run.Batch
	u *units
}

// units is what a comparison does with its units (run.Units).
type units struct {
	c    *Comparison
	sink *output.Folder
	out  *Output
}

// NewBatch is the batch of exp's comparison under opt (seed,
// replications, series), set up as Run sets it up.
func NewBatch(exp *experiment.Experiment, opt run.CompareOptions) *Batch {
	c := newComparison(exp, opt)
	u := &units{c: c}
	return &Batch{Batch: &run.Batch{Kind: "compare", Name: exp.Name, Seed: c.Seed, Replications: c.Replications,
		Series: run.SeriesMode(exp, opt), Models: c.models(), Units: u}, u: u}
}

// Commit writes the outputs into the staging folder (Stage) and commits
// it whole, with opt.Plots and opt.SVG.
func (b *Batch) Commit(opt run.CompareOptions) (*Output, error) {
	if err := b.u.out.write(b.u.sink, opt, b.Series, ""); err != nil {
		return nil, err
	}
	if err := b.u.sink.Commit(); err != nil {
		return nil, err
	}
	return b.u.out, nil
}

// Comparison is the comparison the units are added to.
func (b *Batch) Comparison() *Comparison { return b.u.c }

func (u *units) Unit(res *topology.Result, rec run.RunRecord) run.Unit {
	return run.ComparedUnit(res, rec)
}

func (u *units) Label(i int) string {
	k := len(u.c.Arms)
	return fmt.Sprintf("replication %d of variant %q", i/k, u.c.Arms[i%k].Name)
}

func (u *units) Stage(opt run.CompareOptions) error {
	u.sink = output.NewFolder(opt.OutDir, opt.SVG)
	if err := u.sink.Open(filepath.Join(run.DefaultOutDir(u.c.Name), "compare")); err != nil {
		return err
	}
	u.out = &Output{Comparison: u.c, Dir: u.sink.Dir}
	return nil
}

func (u *units) Add(i int, d run.Unit) error {
	k := len(u.c.Arms)
	u.c.keepUnit(i%k, i/k, d)
	return nil
}

func (u *units) KeepRun(i int, res *topology.Result) {
	if i < len(u.c.Arms) {
		u.c.Runs[i][0] = res
	}
}

func (u *units) Abort() {
	if u.sink != nil {
		u.sink.Abort()
	}
}
