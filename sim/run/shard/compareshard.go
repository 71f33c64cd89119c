package shard

import (
	"context"
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
)

// RunCompareShard runs shard s's share of the comparison of exp (read
// from file, whose bytes are data): its (variant, replication) units,
// each keeping its record, latency histogram and overlay series in the
// partial file, as RunSweepShard does. Series "all" is refused: every
// run's time series would have to travel in the partial files.
func RunCompareShard(ctx context.Context, exp *experiment.Experiment, file string, data []byte, s Shard, opt run.CompareOptions) (*ShardRun, error) {
	if err := run.CheckSeries(opt.Series); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	b := compare.NewBatch(exp, opt)
	if b.Series == experiment.SeriesAll {
		return nil, fmt.Errorf("compare %s shard %s: series %q cannot be sharded (every run's time series); use first or none", exp.Name, s, b.Series)
	}
	j := &shardJob{header: newHeader("compare", exp, file, data, b.Seed, b.Replications), batch: b.Batch}
	j.header.Series = b.Series
	sr, err := j.run(ctx, s, opt)
	if err != nil {
		return sr, fmt.Errorf("compare %s shard %s: %w", exp.Name, s, err)
	}
	return sr, nil
}

// mergeCompare merges a comparison's partial files into its outputs, as
// Compare writes them. Every unit's data goes through keepUnit in
// replication order. Replication 0 of each variant, whose whole result
// the figures and timeseries.csv need, is run again here (a run is
// deterministic, and the re-run must give its shard's line byte for
// byte), with the units opt.Verify chooses with seed, all under
// opt.Budget: a partial file's embedded experiment is not to be trusted
// with an unbounded run.
func mergeCompare(ctx context.Context, exp *experiment.Experiment, h PartialHeader, paths []string, mopt MergeOptions, seed uint64) (*compare.Output, *Verification, error) {
	opt := mopt.compareOptions()
	opt.Seed, opt.Replications, opt.Series = &h.Seed, h.Replications, h.Series
	b := compare.NewBatch(exp, opt)
	n := len(b.Models)
	rep0 := make([]int, n) // unit u < n is replication 0 of variant u
	for u := range rep0 {
		rep0[u] = u
	}
	j := &shardJob{header: h, batch: b.Batch}
	v, err := newVerifier(j, mopt, seed, rep0, paths)
	if err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	parts, err := readPartials(paths, v)
	if err != nil {
		return nil, nil, err
	}
	from, err := collectUnits(parts, paths, assignModels(b.Models, b.Replications, h.Shards))
	if err != nil {
		return nil, nil, err
	}
	for u, f := range from {
		d := parts[f].Records[u]
		if rep := u / n; d.Record.Replication != rep || !d.Compared() {
			return nil, nil, fmt.Errorf("%w: corrupt: %s: unit %d is not replication %d of a comparison", ErrPartial, paths[f], u, rep)
		}
		if err := b.Add(u, d); err != nil {
			return nil, nil, err
		}
	}
	if err := j.rerun(ctx, v, opt, b.Label, b.KeepRun); err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	if err := b.Stage(opt); err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	defer b.Abort()
	out, err := b.Commit(opt)
	if err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	return out, v.v, nil
}
