package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// ShardRun is what a shard did.
type ShardRun struct {
	// Path is the partial file written.
	Path string
	// Units is the number of units the shard holds; Resumed those found
	// already done in Path and skipped; Ran those run now.
	Units, Resumed, Ran int
}

// ShardPath is the partial file of shard s of a kind ("sweep",
// "compare") in dir.
func ShardPath(dir, kind string, s Shard) string {
	return filepath.Join(dir, fmt.Sprintf("%s-shard-%05d-of-%05d.partial.jsonl", kind, s.I, s.N))
}

// shardJob is a sharded batch: its header (all but the shard's part)
// and its units.
type shardJob struct {
	header PartialHeader
	batch  *run.Batch
}

// newHeader is a partial header for exp read from file (bytes data).
func newHeader(kind string, exp *experiment.Experiment, file string, data []byte, seed uint64, reps int) PartialHeader {
	sum := sha256.Sum256(data)
	return PartialHeader{Format: PartialFormat, Kind: kind, Experiment: exp.Name, FileName: filepath.Base(file),
		FileSHA256: hex.EncodeToString(sum[:]), Version: version.Version, Seed: seed, Replications: reps, File: data}
}

// run runs shard s of the job: unit u is replication u / len(models) of
// model u % len(models), the order in which the unsharded command hands
// out its runs. The units are dealt by AssignUnits on Estimate's events.
func (j *shardJob) run(ctx context.Context, s Shard, opt run.CompareOptions) (*ShardRun, error) {
	mine := shardUnits(j.batch.Models, j.header.Replications, s)
	h := j.header
	h.Shard, h.Shards, h.Units = s.I, s.N, append([]int{}, mine...)
	dir := opt.OutDir
	if dir == "" {
		dir = filepath.Join(run.DefaultOutDir(h.Experiment), "shards")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", output.ErrOutput, err)
	}
	sr := &ShardRun{Path: ShardPath(dir, h.Kind, s), Units: len(mine)}
	done, err := resumePartial(sr.Path, h, mine)
	if err != nil {
		return nil, err
	}
	sr.Resumed = len(done)
	var todo []int
	for _, u := range mine {
		if !done[u] {
			todo = append(todo, u)
		}
	}
	j.sortTodo(todo)
	return sr, j.runUnits(ctx, sr, todo, opt)
}

// resumePartial rewrites path with header h and the units of an earlier
// run of the same shard found in it (all of them verified by checksum),
// and returns their ids. It streams the old file, one unit at a time, so
// that a resume holds no unit's data. A file of another run is refused
// rather than lost.
func resumePartial(path string, h PartialHeader, mine []int) (map[int]bool, error) {
	done := map[int]bool{}
	old, _, err := scanPartial(path, nil)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("resume: %w (remove it to start the shard afresh)", err)
	default:
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(h)
		if !bytes.Equal(a, b) {
			return nil, fmt.Errorf("resume: %s holds another run (file, seed, replications, series, version or shards differ); remove it or choose another folder", path)
		}
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(append(hb, '\n')); err != nil || !exists {
			return err
		}
		_, _, err := scanPartial(path, func(u int, d run.Unit) error {
			return keepResumed(w, done, mine, u, d)
		})
		if err != nil {
			return fmt.Errorf("resume: %w (remove it to start the shard afresh)", err)
		}
		return nil
	})
	return done, err
}

// keepResumed writes unit u's line to w if it is one of mine (a sorted
// list), once.
func keepResumed(w io.Writer, done map[int]bool, mine []int, u int, d run.Unit) error {
	if _, ok := slices.BinarySearch(mine, u); !ok {
		return nil
	}
	if done[u] {
		return fmt.Errorf("unit %d appears twice", u)
	}
	line, err := run.UnitLine(u, d)
	if err != nil {
		return err
	}
	done[u] = true
	_, err = w.Write(line)
	return err
}

// sortTodo orders the units as the unsharded command hands them out:
// replication by replication, the costliest models of each first.
func (j *shardJob) sortTodo(todo []int) {
	k := len(j.batch.Models)
	rank := make([]int, k)
	for r, m := range j.batch.CostOrder() {
		rank[m] = r
	}
	sort.Slice(todo, func(a, b int) bool {
		ua, ub := todo[a], todo[b]
		if ua/k != ub/k {
			return ua/k < ub/k
		}
		return rank[ua%k] < rank[ub%k]
	})
}

// plan is each model the units todo run, with its count: one entry per
// model, not per unit, so that a shard of millions of units plans in
// little memory.
func (j *shardJob) plan(todo []int) []runner.PlannedRun {
	k := len(j.batch.Models)
	times := make([]int, k)
	for _, u := range todo {
		times[u%k]++
	}
	var plan []runner.PlannedRun
	for m, n := range times {
		if n > 0 {
			plan = append(plan, runner.PlannedRun{Model: j.batch.Models[m], Times: n, OnDisk: true})
		}
	}
	return plan
}

// runUnits runs the units todo, opt.Jobs at a time, appending each
// record to sr.Path as it finishes (one write per line, under a lock).
// On a stop (cancellation, budget) the units finished stay in the file.
func (j *shardJob) runUnits(ctx context.Context, sr *ShardRun, todo []int, opt run.CompareOptions) error {
	if err := opt.Budget.Check(j.plan(todo)); err != nil {
		return err
	}
	f, err := os.OpenFile(sr.Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := runner.NewMeter(ctx, opt.Budget, j.batch.Models...)
	var mu sync.Mutex
	var firstErr error
	_, cancelled := run.Parallel(ctx, len(todo), opt.Jobs, func(i int) {
		u := todo[i]
		_, d, err := j.batch.RunUnit(u, g)
		var line []byte
		if err == nil {
			line, err = run.UnitLine(u, d)
		}
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			_, err = f.Write(line)
		}
		if err != nil {
			if firstErr == nil || (run.IsStop(firstErr) && !run.IsStop(err)) {
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
