package run

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/runner"
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
// replication order; replication 0 of each variant, whose whole result
// the figures and timeseries.csv need, is run again here (a run is
// deterministic, and its summary digest must match the shard's record).
func mergeCompare(exp *experiment.Experiment, parts []*partialFile, paths []string, opt CompareOptions) (*CompareOutput, error) {
	h := parts[0].Header
	opt.Seed, opt.Replications, opt.Series = &h.Seed, h.Replications, h.Series
	c := newComparison(exp, opt)
	n := len(c.Arms)
	from, err := collectUnits(parts, paths, assignModels(c.models(), c.Replications, h.Shards))
	if err != nil {
		return nil, err
	}
	for u, f := range from {
		d := parts[f].Records[u]
		arm, rep := u%n, u/n
		if d.Rec.Replication != rep || d.Latency == nil {
			return nil, fmt.Errorf("%w: corrupt: %s: unit %d is not replication %d of a comparison", ErrPartial, paths[f], u, rep)
		}
		c.keepUnit(arm, rep, d)
	}
	g := runner.NewMeter(context.Background(), opt.Budget, c.models()...)
	for arm, a := range c.Arms {
		cfg := a.Model
		cfg.Seed = ReplicationSeed(c.Seed, 0)
		res, rec, err := runRecorded(cfg, 0, g, "", 0, "")
		if err != nil {
			return nil, fmt.Errorf("merge %s: re-running replication 0 of %q: %w", exp.Name, a.Name, err)
		}
		if rec.SummarySHA256 != c.Records[arm][0].SummarySHA256 {
			return nil, fmt.Errorf("%w: replication 0 of %q re-run here differs from its shard's record", ErrPartial, a.Name)
		}
		c.Runs[arm][0] = res
	}
	out := &CompareOutput{Comparison: c, Dir: opt.OutDir}
	if out.Dir == "" {
		out.Dir = filepath.Join(DefaultOutDir(exp.Name), "compare")
	}
	stage, err := stageOutput(out.Dir)
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	defer stage.Abort()
	if err := out.write(stage.Path(), exp, opt, h.Series); err != nil {
		return nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	if err := stage.Commit(); err != nil {
		return nil, fmt.Errorf("merge %s: %w", exp.Name, err)
	}
	out.Files = underDir(out.Files, stage.Path(), out.Dir)
	return out, nil
}
