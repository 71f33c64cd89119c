// Package runtest holds test helpers shared by the rooms of sim/run
// (run, compare, sweep, shard): comparing a Memory sink with the folder
// a Folder sink wrote, and counting figures. Tests only.
package runtest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
)

// SameFiles checks that every in-memory file and SVG figure has the bytes
// of the file of that name in dir, and that there are wantFiles data
// files and wantFigs figures.
func SameFiles(t *testing.T, dir string, mem *output.Memory, wantFiles, wantFigs int) {
	t.Helper()
	if len(mem.Files) != wantFiles {
		t.Errorf("%d data files, want %d", len(mem.Files), wantFiles)
	}
	for _, f := range mem.Files {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Data) == 0 || !bytes.Equal(f.Data, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
	if len(mem.Figures) != wantFigs {
		t.Errorf("%d figures, want %d", len(mem.Figures), wantFigs)
	}
	for _, f := range mem.Figures {
		want, err := os.ReadFile(filepath.Join(dir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(f.SVG, want) {
			t.Errorf("%s differs from the file written", f.File)
		}
	}
}

// SVGCount is the number of SVG files in dir.
func SVGCount(t *testing.T, dir string) int {
	t.Helper()
	figs, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	return len(figs)
}

// Parse parses an experiment file's text, failing the test on an error.
func Parse(t *testing.T, src string) *experiment.Experiment {
	t.Helper()
	exp, err := experiment.Parse("test.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// SweepFile is a small two-variant sweep over two axes, shared by the
// tests of the sweep room and those that re-run its cells.
const SweepFile = `schema = 1
[experiment]
name = "sw"
duration = "30s"
warmup = "5s"
seed = 2
replications = 2
[[client]]
name = "users"
target = "api"
rate = 300
deadline = "1s"
timeout = "100ms"
retry = { attempts = 3, backoff = "none" }
[[service]]
name = "api"
workers = 5
queue_capacity = 500
service_time = { dist = "exponential", mean = "10ms" }
[[fault]]
kind = "latency"
target = "api"
start = "10s"
duration = "2s"
multiply = 5
[[variant]]
name = "no-retries"
set = { "client.users.retry.attempts" = 1 }
[sweep]
variants = ["base", "no-retries"]
x = { path = "client.users.rate", values = [100, 300] }
y = { path = "fault.0.duration", label = "spike", values = ["100ms", "2s"] }
`

// Variants loads sim/run/testdata/variants.toml, a small comparison of
// three variants, from any room's tests.
func Variants(t *testing.T) *experiment.Experiment {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	exp, err := experiment.Load(filepath.Join(filepath.Dir(self), "..", "..", "sim", "run", "testdata", "variants.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// OneService is a one-minute experiment of one open-loop client at 50
// requests/s to one four-worker service, for tests to extend (a sweep,
// many services).
const OneService = `schema = 1
[experiment]
name = "many"
duration = "60s"
seed = 1
replications = 1
[[client]]
name = "c"
target = "api"
rate = 50
[[service]]
name = "api"
workers = 4
queue_capacity = 10
service_time = { dist = "exponential", mean = "10ms" }
`
