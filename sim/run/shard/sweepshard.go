package shard

import (
	"context"
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/sweep"
)

// RunSweepShard runs shard s's share of the sweep of exp (read from file,
// whose bytes are data) and appends each finished unit's record to its
// partial file in opt.OutDir (default out/<name>/shards). If that file
// already holds units of the same run, it keeps those whose checksums
// verify and runs only the rest (resume). On a stop (cancellation,
// budget) the units finished stay in the file and the reason is returned
// with the ShardRun.
func RunSweepShard(ctx context.Context, exp *experiment.Experiment, file string, data []byte, s Shard, opt run.CompareOptions) (*ShardRun, error) {
	b, err := sweep.NewBatch(exp, opt)
	if err != nil {
		return nil, err
	}
	j := &shardJob{header: newHeader("sweep", exp, file, data, b.Seed, b.Replications), batch: b.Batch}
	sr, err := j.run(ctx, s, opt)
	if err != nil {
		return sr, fmt.Errorf("sweep %s shard %s: %w", exp.Name, s, err)
	}
	return sr, nil
}
