package run

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// RunCompareShard runs shard s's share of the comparison of exp (read
// from file, whose bytes are data): its (variant, replication) units,
// each keeping its record, latency histogram and overlay series in the
// partial file, as RunSweepShard does. Series "all" is refused: every
// run's time series would have to travel in the partial files.
func RunCompareShard(ctx context.Context, exp *experiment.Experiment, file string, data []byte, s Shard, opt CompareOptions) (*ShardRun, error) {
	if err := CheckSeries(opt.Series); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	mode := seriesMode(exp, opt)
	if mode == experiment.SeriesAll {
		return nil, fmt.Errorf("compare %s shard %s: series %q cannot be sharded (every run's time series); use first or none", exp.Name, s, mode)
	}
	c := newComparison(exp, opt)
	j := &shardJob{header: newHeader("compare", exp, file, data, c.Seed, c.Replications), keep: unitOfRun}
	j.header.Series = mode
	j.models = c.models()
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
func mergeCompare(ctx context.Context, exp *experiment.Experiment, h PartialHeader, paths []string, mopt MergeOptions, seed uint64) (*CompareOutput, *Verification, error) {
	opt := mopt.compareOptions()
	opt.Seed, opt.Replications, opt.Series = &h.Seed, h.Replications, h.Series
	c := newComparison(exp, opt)
	n := len(c.Arms)
	rep0 := make([]int, n) // unit u < n is replication 0 of variant u
	for u := range rep0 {
		rep0[u] = u
	}
	j := &shardJob{header: h, models: c.models(), keep: unitOfRun}
	v, err := newVerifier(j, mopt, seed, rep0, paths)
	if err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	parts, err := readPartials(paths, v)
	if err != nil {
		return nil, nil, err
	}
	from, err := collectUnits(parts, paths, assignModels(c.models(), c.Replications, h.Shards))
	if err != nil {
		return nil, nil, err
	}
	for u, f := range from {
		d := parts[f].Records[u]
		arm, rep := u%n, u/n
		if d.Rec.Replication != rep || d.Latency == nil {
			return nil, nil, fmt.Errorf("%w: corrupt: %s: unit %d is not replication %d of a comparison", ErrPartial, paths[f], u, rep)
		}
		c.keepUnit(arm, rep, d)
	}
	label := func(u int) string { return fmt.Sprintf("replication %d of variant %q", u/n, c.Arms[u%n].Name) }
	err = j.rerun(ctx, v, opt, label, func(u int, res *topology.Result) {
		if u < n {
			c.Runs[u][0] = res
		}
	})
	if err != nil {
		return nil, nil, mergeError(exp.Name, err)
	}
	out := &CompareOutput{Comparison: c, Dir: opt.OutDir}
	if out.Dir == "" {
		out.Dir = filepath.Join(DefaultOutDir(exp.Name), "compare")
	}
	stage, err := stageOutput(out.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	defer stage.Abort()
	if err := out.write(stage.Path(), exp, opt, h.Series); err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	if err := stage.Commit(); err != nil {
		return nil, nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	out.Files = underDir(out.Files, stage.Path(), out.Dir)
	return out, v.v, nil
}
