package run

import (
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Batch is the runs of a sweep or a comparison as numbered units, for
// the shard room (sim/run/shard), which runs them in parts and merges
// them: unit u is replication u / len(Models) of model u % len(Models),
// the order in which the sweep and comparison rooms hand out their runs.
// A merge adds every unit (Add) to the outputs staged (Stage) and
// commits them (the room's own Batch's Commit): the same records in the
// same order, written by the same code as the unsharded command, give
// the same bytes. The sweep and compare rooms make batches (their
// NewBatch); what is kind-specific is their Units.
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
	// Units is what the batch's kind does with its units.
	Units Units
}

// Units is what a sweep or a comparison does with a batch's units. Its
// methods are called from one goroutine at a time.
type Units interface {
	// Unit is what unit u's line keeps of its run: its record, and for a
	// comparison its latencies and overlay series.
	Unit(res *topology.Result, rec RunRecord) Unit
	// Label names unit u for people: its replication and variant, and
	// for a sweep its cell.
	Label(u int) string
	// Stage stages the output folder, opt.OutDir (default out/<name>/sweep
	// or compare), which Commit fills and Abort removes. A sweep's units
	// are added after Stage (its records wait in the staging folder), a
	// comparison's before or after.
	Stage(opt CompareOptions) error
	// Add adds unit u's data to the outputs. The caller checks that d is
	// the unit's (its replication, and its kind).
	Add(u int, d Unit) error
	// KeepRun keeps the whole result of unit u if the outputs need it
	// (a comparison's replication 0 of a variant).
	KeepRun(u int, res *topology.Result)
	// Abort removes the staging folder unless it was committed.
	Abort()
}

// RunUnit runs unit u under g and returns its result and what its line
// keeps of it (Units.Unit).
func (b *Batch) RunUnit(u int, g *runner.Meter) (*topology.Result, Unit, error) {
	k := len(b.Models)
	rep, cfg := u/k, b.Models[u%k]
	cfg.Seed = ReplicationSeed(b.Seed, rep)
	res, rec, err := RunRecorded(cfg, rep, g, nil)
	if err != nil {
		return nil, Unit{}, err
	}
	return res, b.Units.Unit(res, rec), nil
}

// CostOrder is the indices of the models from the most to the least
// costly by runner.Estimate's events (ties by index): the order in which
// the unsharded command starts each replication's runs.
func (b *Batch) CostOrder() []int { return CostOrder(b.Models) }

// Label names unit u for people (Units.Label).
func (b *Batch) Label(u int) string { return b.Units.Label(u) }

// Stage stages the outputs (Units.Stage).
func (b *Batch) Stage(opt CompareOptions) error { return b.Units.Stage(opt) }

// Add adds unit u's data to the outputs (Units.Add).
func (b *Batch) Add(u int, d Unit) error { return b.Units.Add(u, d) }

// KeepRun keeps unit u's whole result if needed (Units.KeepRun).
func (b *Batch) KeepRun(u int, res *topology.Result) { b.Units.KeepRun(u, res) }

// Abort removes the staging folder unless committed (Units.Abort).
func (b *Batch) Abort() { b.Units.Abort() }
