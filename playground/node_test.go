//go:build !js

package playground

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// TestWasmSameBytesAsCLI: main.wasm, run under Node the way the page's
// worker runs it, gives the summary.json that ressim run writes for the
// same file and seed (the CLI's own Execute, on this machine).
func TestWasmSameBytesAsCLI(t *testing.T) {
	node := need(t, "node", "nodejs")
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
	if _, err := run.Execute(exp, run.Options{OutDir: out, Seed: &s}); err != nil {
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
