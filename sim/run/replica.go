package run

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// ErrNoSuchRun reports a Replica that names no run of the comparison or
// sweep: an unknown variant, a replication or a cell out of range.
var ErrNoSuchRun = errors.New("no such run")

// Replica names one run of a comparison or a sweep, for Execute to repeat
// exactly: the same model (variant, and sweep cell) and the same seed, so
// that its summary.json is byte-identical to the one the comparison
// digested (compare.json's summary_sha256).
type Replica struct {
	// Variant is the variant's name; "" or "base" is the base.
	Variant string
	// Index is the replication, in [0, Replications).
	Index int
	// Replications is how many the comparison ran (compare
	// --replications); 0 means [experiment].replications.
	Replications int
	// Cell, if not nil, selects a sweep cell by its axes' value indices:
	// {x} for a one-axis sweep, {x, y} for two.
	Cell []int
}

// Label names the replica in a directory name: "base-r3",
// "retry-budget-x2y0-r3".
func (p Replica) Label() string {
	v := p.Variant
	if v == "" {
		v = "base"
	}
	if len(p.Cell) == 1 {
		v += fmt.Sprintf("-x%d", p.Cell[0])
	} else if len(p.Cell) == 2 {
		v += fmt.Sprintf("-x%dy%d", p.Cell[0], p.Cell[1])
	}
	return fmt.Sprintf("%s-r%d", v, p.Index)
}

// DefaultReplicaDir is where Execute writes a replica's outputs when
// the Folder names no folder: out/<name>/replica/<label>.
func DefaultReplicaDir(name string, p Replica) string {
	return filepath.Join(DefaultOutDir(name), "replica", p.Label())
}

// ReplicaModel returns the model compare or sweep ran as p: the variant's
// (and cell's) model with the replication's seed, derived from seed (the
// experiment's, or the --seed override) as RunAll and RunSweep derive it.
// Errors wrap ErrNoSuchRun.
func ReplicaModel(exp *experiment.Experiment, p Replica, seed uint64) (topology.Config, error) {
	reps := p.Replications
	if reps <= 0 {
		reps = max(exp.Replications, 1)
	}
	if p.Index < 0 || p.Index >= reps {
		return topology.Config{}, fmt.Errorf("%w: replication %d is out of range: %s runs %d replication(s), 0 to %d (pass --replications N if the comparison ran more)",
			ErrNoSuchRun, p.Index, exp.Name, reps, reps-1)
	}
	var cfg topology.Config
	var err error
	if p.Cell == nil {
		cfg, err = exp.VariantModel(p.Variant)
	} else {
		cfg, err = cellModelAt(exp, p.Variant, p.Cell)
	}
	if err != nil {
		return topology.Config{}, fmt.Errorf("%w: %w", ErrNoSuchRun, err)
	}
	cfg.Seed = ReplicationSeed(seed, p.Index)
	return cfg, nil
}

// cellModelAt checks a cell selector against exp's sweep and returns the
// cell's model.
func cellModelAt(exp *experiment.Experiment, variant string, cell []int) (topology.Config, error) {
	sw := exp.Sweep
	if sw == nil {
		return topology.Config{}, fmt.Errorf("%s has no [sweep] table to pick a cell of", exp.File)
	}
	axes := 1
	if sw.Y != nil {
		axes = 2
	}
	if len(cell) != axes {
		return topology.Config{}, fmt.Errorf("the sweep has %d axis(es): give %d cell index(es), got %d", axes, axes, len(cell))
	}
	if cell[0] < 0 || cell[0] >= len(sw.X.Values) {
		return topology.Config{}, fmt.Errorf("cell x index %d is out of range: %s has %d values, 0 to %d", cell[0], sw.X.Path, len(sw.X.Values), len(sw.X.Values)-1)
	}
	y := 0
	if axes == 2 {
		if y = cell[1]; y < 0 || y >= len(sw.Y.Values) {
			return topology.Config{}, fmt.Errorf("cell y index %d is out of range: %s has %d values, 0 to %d", y, sw.Y.Path, len(sw.Y.Values), len(sw.Y.Values)-1)
		}
	}
	if _, err := exp.VariantModel(variant); err != nil {
		return topology.Config{}, err
	}
	return CellModel(exp, variant, cell[0], y)
}

// CellModel returns the model of a sweep cell: the variant with the X axis
// at its x-th value and the Y axis (if any) at its y-th, exactly as
// RunSweep builds it.
func CellModel(exp *experiment.Experiment, variant string, x, y int) (topology.Config, error) {
	sw := exp.Sweep
	set := map[string]any{sw.X.Path: sw.X.Values[x]}
	if sw.Y != nil {
		set[sw.Y.Path] = sw.Y.Values[y]
	}
	cfg, err := exp.VariantWith(variant, set)
	if err != nil {
		return topology.Config{}, fmt.Errorf("variant %q cell %v: %w", variant, set, err)
	}
	return cfg, nil
}
