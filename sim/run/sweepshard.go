package run

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
)

// ShardRun is what RunSweepShard did.
type ShardRun struct {
	// Path is the partial file written.
	Path string
	// Units is the number of units the shard holds; Resumed those found
	// already done in Path and skipped; Ran those run now.
	Units, Resumed, Ran int
}

// SweepShardPath is the partial file of shard s in dir.
func SweepShardPath(dir string, s Shard) string {
	return filepath.Join(dir, fmt.Sprintf("sweep-shard-%05d-of-%05d.partial.jsonl", s.I, s.N))
}

// sweepUnitCosts is each work unit's estimated events: unit u is
// replication u / len(cells) of cell u % len(cells), the order in which
// the unsharded sweep hands out its runs.
func sweepUnitCosts(cells []sweepCell, reps int) []float64 {
	per := make([]float64, len(cells))
	for i, c := range cells {
		per[i] = Estimate(c.cfg).Events
	}
	cost := make([]float64, len(cells)*reps)
	for u := range cost {
		cost[u] = per[u%len(cells)]
	}
	return cost
}

// RunSweepShard runs shard s's share of the sweep of exp (read from file,
// whose bytes are data) and appends each finished unit's record to its
// partial file in opt.OutDir (default out/<name>/shards). If that file
// already holds units of the same run, it keeps those whose checksums
// verify and runs only the rest (resume). On a stop (cancellation,
// budget) the units finished stay in the file and the reason is returned.
func RunSweepShard(ctx context.Context, exp *experiment.Experiment, file string, data []byte, s Shard, opt CompareOptions) (*ShardRun, error) {
	res, cells, err := newSweep(exp, opt)
	if err != nil {
		return nil, err
	}
	mine := AssignUnits(sweepUnitCosts(cells, res.Replications), s.N)[s.I]
	sum := sha256.Sum256(data)
	h := PartialHeader{Format: PartialFormat, Kind: "sweep", Experiment: exp.Name, FileName: filepath.Base(file),
		FileSHA256: hex.EncodeToString(sum[:]), Version: version.Version, Seed: res.Seed, Replications: res.Replications,
		Shard: s.I, Shards: s.N, Units: append([]int{}, mine...), File: data}
	dir := opt.OutDir
	if dir == "" {
		dir = filepath.Join(DefaultOutDir(exp.Name), "shards")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sweep %s shard %s: %w: %w", exp.Name, s, ErrOutput, err)
	}
	sr := &ShardRun{Path: SweepShardPath(dir, s), Units: len(mine)}
	done, err := resumePartial(sr.Path, h, mine)
	if err != nil {
		return nil, fmt.Errorf("sweep %s shard %s: %w", exp.Name, s, err)
	}
	sr.Resumed = len(done)
	var todo []int
	for _, u := range mine {
		if _, ok := done[u]; !ok {
			todo = append(todo, u)
		}
	}
	err = runShardUnits(ctx, sr, res, cells, todo, opt)
	if err != nil {
		return sr, fmt.Errorf("sweep %s shard %s: %w", exp.Name, s, err)
	}
	return sr, nil
}

// resumePartial rewrites path with header h and the units of an earlier
// run of the same shard found in it (all of them verified by checksum),
// and returns those. A file of another run is refused rather than lost.
func resumePartial(path string, h PartialHeader, mine []int) (map[int]RunRecord, error) {
	done := map[int]RunRecord{}
	old, err := readPartial(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		return nil, fmt.Errorf("resume: %w (remove it to start the shard afresh)", err)
	default:
		a, _ := json.Marshal(old.Header)
		b, _ := json.Marshal(h)
		if !bytes.Equal(a, b) {
			return nil, fmt.Errorf("resume: %s holds another run (file, seed, replications, version or shards differ); remove it or choose another folder", path)
		}
		for _, u := range old.Order {
			done[u] = old.Records[u]
		}
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(append(hb, '\n')); err != nil {
			return err
		}
		for _, u := range mine {
			if r, ok := done[u]; ok {
				line, err := unitLine(u, r)
				if err != nil {
					return err
				}
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return done, err
}

// runShardUnits runs the units todo, opt.Jobs at a time, appending each
// record to sr.Path as it finishes (one write per line, under a lock).
func runShardUnits(ctx context.Context, sr *ShardRun, res *SweepResult, cells []sweepCell, todo []int, opt CompareOptions) error {
	plan := make([]PlannedRun, len(todo))
	for i, u := range todo {
		plan[i] = PlannedRun{Model: cells[u%len(cells)].cfg, Times: 1}
	}
	if err := opt.Budget.Check(plan); err != nil {
		return err
	}
	f, err := os.OpenFile(sr.Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := newMeter(ctx, opt.Budget)
	var mu sync.Mutex
	var firstErr error
	_, cancelled := parallel(ctx, len(todo), opt.Jobs, func(i int) {
		u := todo[i]
		rep, c := u/len(cells), cells[u%len(cells)]
		cfg := c.cfg
		cfg.Seed = ReplicationSeed(res.Seed, rep)
		_, rec, err := runRecorded(cfg, rep, g, "", 0, "")
		var line []byte
		if err == nil {
			line, err = unitLine(u, rec)
		}
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			_, err = f.Write(line)
		}
		if err != nil {
			if firstErr == nil || (isStop(firstErr) && !isStop(err)) {
				firstErr = err
			}
			cancel()
			return
		}
		sr.Ran++
	}, opt.Progress)
	if firstErr == nil {
		firstErr = cancelled
	}
	if err := f.Sync(); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}
