package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/topology"
)

// genFiles is how many generated experiments TestEstimateBothWays runs.
const genFiles = 300

// The factors TestEstimateBothWays allows between Estimate and what the
// runs of its genFiles generated files and the bundled ones measure,
// estimated/measured, each in [1, factor].
//
// Events: the ratios went from 1.21 to 265 (median 5.09, 90 % under
// 25.1; 3000 files of the same generator: 1.08 to 461). The long tail is
// the estimate's own rule, every attempt retried to the limit at every
// layer: gen205's client sends 7 requests, retried up to 3 times, to db,
// whose calls to ledger (up to 4 attempts) call catalogue (3), whose
// five calls to gateway (up to 4) call auth; the run retried little.
// eventsFactor is 1000, about twice the largest ratio seen.
//
// timeseries.csv bytes: 1.34 to 2.23 (median 1.65). The estimate is a
// bound (metrics.CSVBound: every value at its longest, 24 bytes; most
// are under 10), so it is never under; outputFactor is 3.
//
// Peak heap: 2.50 (codel-lifo.toml, the largest heap measured, 2.9 MB)
// to 60.3 (median 17.2). A small run holds a few hundred KiB (120 KB at
// least) against the estimate's fixed allowances (10^4 pending events at
// 600 bytes and the event log at its cap: 7.1 MiB). The live heap,
// sampled after full collections, comes out the same from one run of the
// test to the next, so the check goes both ways: never under, and at
// most memoryFactor 120, twice the largest ratio seen.
const (
	eventsFactor = 1000
	outputFactor = 3
	memoryFactor = 120
)

// TestEstimateBothWays holds Estimate to the runs it predicts, in both
// directions, on genFiles generated experiments (gen_test.go) and every
// bundled one: the events, the series columns, the timeseries.csv bytes
// and the peak memory of each run. A violation prints the file, which
// reproduces it (ressim run FILE).
func TestEstimateBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few hundred experiments")
	}
	type file struct {
		name, text string
		cfg        topology.Config
	}
	var files []file
	for i := range genFiles {
		text, exp, err := genExperiment(i)
		if err != nil {
			t.Fatalf("generated file %d does not parse: %v\n%s", i, err, text)
		}
		files = append(files, file{fmt.Sprintf("gen%03d.toml", i), text, exp.Model})
	}
	bundled, err := filepath.Glob("../../../experiments/*.toml")
	if err != nil || len(bundled) == 0 {
		t.Fatal("no bundled experiments", err)
	}
	for _, f := range bundled {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := experiment.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{filepath.Base(f), string(data), exp.Model})
	}

	var evR, outR, memR, heap ratios
	for _, f := range files {
		est := Estimate(f.cfg)
		res, mem, err := runMeasured(f.cfg)
		if err != nil {
			t.Errorf("%s: %v\n%s", f.name, err, f.text)
			continue
		}
		fail := func(format string, args ...any) {
			t.Errorf("%s: %s; the file (ressim run FILE reproduces it):\n%s", f.name, fmt.Sprintf(format, args...), f.text)
		}
		ev := est.Events / float64(res.Events)
		evR.add(ev, f.name)
		if ev < 1 || ev > eventsFactor {
			fail("estimated %.0f events, fired %d: ratio %.2f, want in [1, %v]", est.Events, res.Events, ev, eventsFactor)
		}
		if got, want := len(res.Series.Columns()), f.cfg.SeriesColumns(); got != want {
			fail("%d series columns, topology.Config.SeriesColumns says %d", got, want)
		}
		var w countWriter
		if err := metrics.WriteCSV(&w, res.Series); err != nil {
			t.Fatal(err)
		}
		out := est.SeriesBytes / float64(w)
		outR.add(out, f.name)
		if out < 1 || out > outputFactor {
			fail("timeseries.csv estimated %.0f bytes, written %d: ratio %.2f, want in [1, %v]", est.SeriesBytes, w, out, outputFactor)
		}
		m := est.Memory / float64(max(mem, 1))
		memR.add(m, f.name)
		heap.add(float64(mem), f.name)
		if m < 1 || m > memoryFactor {
			fail("memory estimated %s, measured peak %s: ratio %.2f, want in [1, %v]", FormatBytes(est.Memory), FormatBytes(float64(mem)), m, memoryFactor)
		}
	}
	t.Logf("estimated/measured over %d files: events %v; timeseries.csv bytes %v; peak heap %v (measured %v bytes)",
		len(files), &evR, &outR, &memR, &heap)
}

// runMeasured runs cfg as the commands do (a Meter with no budget, zero
// Options but for a progress hook) and returns the peak of the live heap
// it held above what was live before: the heap is read after a full
// collection, so that garbage not yet collected does not count, at up to
// memSamples instants spread over the run (Options.Progress, called after
// every time-series interval) and at the end with the result held.
func runMeasured(cfg topology.Config) (*topology.Result, uint64, error) {
	const memSamples = 16
	runtime.GC()
	base := heapInUse()
	peak := base
	var next time.Duration
	sample := func(now, end time.Duration, _ func() *topology.Result) {
		if now < next {
			return
		}
		next = now + end/memSamples
		runtime.GC()
		peak = max(peak, heapInUse())
	}
	res, err := NewMeter(context.Background(), Budget{}, cfg).Run(cfg, Options{Progress: sample})
	if err != nil {
		return nil, 0, err
	}
	runtime.GC()
	peak = max(peak, heapInUse())
	runtime.KeepAlive(res)
	return res, peak - base, nil
}

// countWriter counts the bytes written to it.
type countWriter int

func (w *countWriter) Write(p []byte) (int, error) { *w += countWriter(len(p)); return len(p), nil }

// ratios collects estimated/measured ratios and the files they come from.
type ratios struct {
	x    []float64
	name []string
}

func (r *ratios) add(x float64, name string) {
	r.x = append(r.x, x)
	r.name = append(r.name, name)
}

// String is the minimum, median, 90th percentile and maximum, with the
// files of the extremes.
func (r *ratios) String() string {
	if len(r.x) == 0 {
		return "none"
	}
	idx := make([]int, len(r.x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.x[idx[a]] < r.x[idx[b]] })
	at := func(q float64) float64 { return r.x[idx[int(q*float64(len(idx)-1))]] }
	lo, hi := idx[0], idx[len(idx)-1]
	return fmt.Sprintf("min %.3g (%s), median %.3g, 90%% %.3g, max %.3g (%s)", r.x[lo], r.name[lo], at(0.5), at(0.9), r.x[hi], r.name[hi])
}
