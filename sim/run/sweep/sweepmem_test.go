package sweep

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/ressim/ressim/internal/runtest"
	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// memSweep is a tiny sweep for the memory test: 20 cells of a model of
// ten requests a second for one second, so that a run costs little and
// the test measures what the sweep keeps, not what a run allocates.
const memSweep = `schema = 1
[experiment]
name = "mem"
duration = "1s"
seed = 3
replications = 1
[[client]]
name = "users"
target = "api"
rate = 10
[[service]]
name = "api"
workers = 2
queue_capacity = 10
service_time = { dist = "exponential", mean = "10ms" }
[sweep]
metric = "goodput"
x = { path = "client.users.rate", values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] }
`

// sweepHeldAfterRuns runs every run of a sweep of exp with reps
// replications per cell (as RunSweep does, up to writing the outputs)
// and returns the live heap then, after a full collection: what the
// sweep holds until its outputs are written.
func sweepHeldAfterRuns(t *testing.T, exp *experiment.Experiment, reps int) uint64 {
	t.Helper()
	res, cells, err := newSweep(exp, run.CompareOptions{Replications: reps})
	if err != nil {
		t.Fatal(err)
	}
	stage := output.NewFolder(t.TempDir()+"/out", false)
	if err := stage.Open(""); err != nil {
		t.Fatal(err)
	}
	defer stage.Abort()
	if res.spool, err = newCellSpool(stage.Scratch()); err != nil {
		t.Fatal(err)
	}
	if err := res.runCells(context.Background(), cells, run.CompareOptions{Jobs: 2}, runner.NewMeter(context.Background(), runner.Budget{})); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(res)
	runtime.KeepAlive(cells)
	return ms.HeapAlloc
}

// TestSweepMemoryFlatInReplications: what a sweep holds while it runs
// does not grow with its replications. Keeping each run's run.RunRecord in
// memory, as sweeps did before the cell spool, holds about 230 bytes per
// run (measured by putting the records back: 228 B; the Headline grid
// held as much again), so 20 cells x 75 more replications would hold
// some 340 KB more. The bound allows 16 bytes per extra run (24 KB), room
// for the per-replication counter (8 bytes per replication, not per run)
// and for the runtime's own noise between two collections (about 1 KB
// here), far below any per-run record.
func TestSweepMemoryFlatInReplications(t *testing.T) {
	exp, err := experiment.Parse("mem.toml", []byte(memSweep))
	if err != nil {
		t.Fatal(err)
	}
	const few, many = 5, 80
	sweepHeldAfterRuns(t, exp, few) // warm up: code paths, pools
	a := sweepHeldAfterRuns(t, exp, few)
	b := sweepHeldAfterRuns(t, exp, many)
	runs := uint64(20 * (many - few))
	t.Logf("live heap after the runs: %d B with %d replications per cell, %d B with %d", a, few, b, many)
	if b > a && (b-a)/runs > 16 {
		t.Errorf("the sweep holds %d B more with %d replications than with %d: %d B per extra run, want at most 16",
			b-a, many, few, (b-a)/runs)
	}
}

// TestSweepJSONStreamed: sweep.json written one cell at a time is the
// document encoded whole with an indenting json.Encoder, as before the
// streaming.
func TestSweepJSONStreamed(t *testing.T) {
	exp, err := experiment.Parse("sw.toml", []byte(runtest.SweepFile))
	if err != nil {
		t.Fatal(err)
	}
	res, cells, err := newSweep(exp, run.CompareOptions{Replications: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.spool, err = newCellSpool(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if err := res.runCells(context.Background(), cells, run.CompareOptions{Jobs: 2}, runner.NewMeter(context.Background(), runner.Budget{})); err != nil {
		t.Fatal(err)
	}
	stats, err := res.stats()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(stats), 1, 0} {
		var got, want bytes.Buffer
		if err := writeSweepJSON(&got, res, stats[:n]); err != nil {
			t.Fatal(err)
		}
		doc := sweepJSON{Version: version.Version, Experiment: res.Name, Seed: res.Seed, Replications: res.Replications,
			Metric: res.Sweep.Metric.Name(), Unit: res.unit(), XPath: res.Sweep.X.Path, YPath: res.Sweep.Y.Path}
		for _, s := range stats[:n] {
			doc.Cells = append(doc.Cells, wholeCell(t, res, s))
		}
		if err := encodeIndented(&want, doc); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d cells: streamed sweep.json differs from the whole encoding:\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
	if len(stats) != 8 {
		t.Fatalf("%d cells, want 8", len(stats))
	}
}

// wholeCell is stat s's cell of sweep.json with all its records, as the
// whole document held them before the streaming.
func wholeCell(t *testing.T, r *Result, s CellStat) sweepCellJSON {
	t.Helper()
	var recs []run.RunRecord
	if err := r.spool.each(r.cell(s.v, s.Y, s.X), r.Replications, func(rec run.RunRecord) error {
		recs = append(recs, rec)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	y := s.Y
	return sweepCellJSON{Variant: s.Variant, X: r.Sweep.X.Values[s.X], Y: r.Sweep.Y.Values[s.Y], XIndex: s.X, YIndex: &y,
		N: s.N, Value: run.JSONNum(s.Value), Lo: run.JSONNum(s.CI95.Lo), Hi: run.JSONNum(s.CI95.Hi), Runs: run.RecordsJSON(recs)}
}
