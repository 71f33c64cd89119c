package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// replicaFlags select one run of a comparison or sweep for ressim run.
type replicaFlags struct {
	variant     string
	replication int
	reps        int
	cell        string
}

func (f *replicaFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.variant, "variant", "", "run this [[variant]] (or \"base\") as compare does")
	c.Flags().IntVar(&f.replication, "replication", 0, "run replication K of the comparison or sweep (its seed mixed from the experiment's and K)")
	c.Flags().IntVar(&f.reps, "replications", 0, "the comparison's replications, if it overrode [experiment].replications (bounds --replication)")
	c.Flags().StringVar(&f.cell, "cell", "", "run the sweep cell X or X,Y (0-based indices into the axes' values, as sweep.json's x_index, y_index)")
}

// replica returns the selected run, or nil when no flag selects one (a
// plain ressim run).
func (f *replicaFlags) replica(c *cobra.Command) (*run.Replica, error) {
	changed := false
	for _, n := range []string{"variant", "replication", "replications", "cell"} {
		changed = changed || c.Flags().Changed(n)
	}
	if !changed {
		return nil, nil
	}
	if c.Flags().Changed("replications") && (f.reps < 1 || f.reps > experiment.MaxReplications) {
		return nil, usageError{fmt.Errorf("--replications must be in [1, %d], got %d", experiment.MaxReplications, f.reps)}
	}
	p := &run.Replica{Variant: f.variant, Index: f.replication, Replications: f.reps}
	if c.Flags().Changed("cell") {
		cell, err := parseCell(f.cell)
		if err != nil {
			return nil, usageError{fmt.Errorf("--cell: %w", err)}
		}
		p.Cell = cell
	}
	return p, nil
}

// parseCell reads "X" or "X,Y" as non-negative indices.
func parseCell(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return nil, fmt.Errorf("expected X or X,Y (axis value indices), got %q", s)
	}
	var cell []int
	for _, p := range parts {
		i, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("expected X or X,Y with non-negative integer indices, got %q", s)
		}
		cell = append(cell, i)
	}
	return cell, nil
}
