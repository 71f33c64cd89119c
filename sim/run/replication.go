package run

import (
	"context"
	"errors"

	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

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

// IsStop reports whether err stopped a run from outside: a budget or a
// cancellation, which keep what finished, rather than a failure.
func IsStop(err error) bool {
	return errors.Is(err, runner.ErrBudget) || errors.Is(err, context.Canceled)
}

// RunRecorded runs replication rep of cfg under g and records it; then,
// if after is not nil, it hands after the result (a comparison spools
// the run's series there).
func RunRecorded(cfg topology.Config, rep int, g *runner.Meter, after func(*topology.Result) error) (*topology.Result, RunRecord, error) {
	res, err := g.Run(cfg, runner.Options{})
	if err != nil {
		return nil, RunRecord{}, err
	}
	rec, err := NewRunRecord(rep, res)
	if err != nil {
		return nil, RunRecord{}, err
	}
	if after != nil {
		if err := after(res); err != nil {
			return nil, RunRecord{}, err
		}
	}
	return res, rec, nil
}
