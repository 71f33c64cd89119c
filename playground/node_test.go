//go:build !js

package playground

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ressim/ressim/internal/tooltest"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

// TestWasmSameBytesAsCLI: main.wasm, run under Node the way the page's
// worker runs it, gives the summary.json that ressim run writes for the
// same file and seed (the CLI's own Execute, on this machine).
func TestWasmSameBytesAsCLI(t *testing.T) {
	node := tooltest.Need(t, "node", "nodejs")
	dir := site(t)
	const file = "../experiments/metastable-retry-storm.toml"
	const seed = 3
	cmd := exec.Command(node, "testdata/run.js", filepath.Join(dir, ExecFile), filepath.Join(dir, WasmFile), file, "3")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	exp, err := experiment.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	s := uint64(seed)
	if _, err := run.Execute(exp, run.Options{Seed: &s}, output.NewFolder(out, false)); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(out, run.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("summary.json from main.wasm (%d bytes) differs from ressim run's (%d bytes)", len(got), len(want))
	}
}

// TestWasmCompareSameBytesAsCLI: the page's comparison (main.wasm under
// Node, as the worker calls it) gives the compare.json that ressim compare
// writes for the same file, seed and replications; and its sweep the
// sweep.json of ressim sweep. Small counts keep it to seconds.
func TestWasmCompareSameBytesAsCLI(t *testing.T) {
	node := tooltest.Need(t, "node", "nodejs")
	dir := site(t)
	for _, tc := range []struct {
		op, file, output string
		seed, reps       uint64
	}{
		{"compare", "../experiments/retry-amplification.toml", compare.JSONFile, 5, 2},
		{"sweep", "../experiments/goodput-vs-load.toml", sweep.JSONFile, 5, 1},
	} {
		cmd := exec.Command(node, "testdata/batch.js", filepath.Join(dir, ExecFile), filepath.Join(dir, WasmFile),
			tc.op, tc.file, strconv.FormatUint(tc.seed, 10), strconv.FormatUint(tc.reps, 10), tc.output)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: node: %v\n%s", tc.op, err, stderr.Bytes())
		}
		want := cliBatch(t, tc.op, tc.file, tc.output, tc.seed, int(tc.reps))
		if len(got) == 0 || !bytes.Equal(got, want) {
			t.Errorf("%s from main.wasm (%d bytes) differs from ressim %s's (%d bytes)", tc.output, len(got), tc.op, len(want))
		}
	}
}

// cliBatch runs ressim compare or sweep's own code on file and returns
// the output file's bytes.
func cliBatch(t *testing.T, op, file, name string, seed uint64, reps int) []byte {
	t.Helper()
	exp, err := experiment.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	opt := run.CompareOptions{OutDir: t.TempDir(), Seed: &seed, Replications: reps}
	if op == "compare" {
		_, err = compare.Run(context.Background(), exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
	} else {
		_, err = sweep.Run(context.Background(), exp, opt, output.NewFolder(opt.OutDir, opt.SVG))
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(opt.OutDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
