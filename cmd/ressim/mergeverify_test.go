package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinySweep = "../../sim/run/testdata/sweep-tiny.toml"

// merge --verify re-runs the units and says which; the budget flags bound
// those re-runs (exit status 4, nothing written); --help lists them all;
// a negative --verify is a usage error.
func TestMergeVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	parts := filepath.Join(dir, "parts")
	if code, _, errOut := ressim("sweep", tinySweep, "--shard", "0/1", "-j", "1", "-o", parts); code != exitOK {
		t.Fatalf("shard: exit %d: %s", code, errOut)
	}
	code, out, errOut := ressim("merge", "--no-plots", "--verify", "5", "-o", filepath.Join(dir, "all"), parts)
	if code != exitOK || !strings.Contains(out, "verified all 3 unit(s)") {
		t.Fatalf("--verify 5 of 3 units: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = ressim("merge", "--no-plots", "--verify", "2", "--verify-seed", "9", "-o", filepath.Join(dir, "two"), parts)
	if code != exitOK || !strings.Contains(out, "verified 2 of 3 unit(s) (--verify-seed 9)") {
		t.Fatalf("--verify 2: exit %d\n%s%s", code, out, errOut)
	}
	stopped := filepath.Join(dir, "stopped")
	code, _, errOut = ressim("merge", "--no-plots", "--verify", "1", "--max-events", "10", "-o", stopped, parts)
	if code != exitBudget || !strings.Contains(errOut, "--max-events") || !strings.Contains(errOut, "to verify") {
		t.Fatalf("--max-events 10: exit %d, want %d\n%s", code, exitBudget, errOut)
	}
	if _, err := os.Stat(stopped); !os.IsNotExist(err) {
		t.Errorf("a merge stopped by its budget left %s: %v", stopped, err)
	}
	if code, _, errOut := ressim("merge", "--verify", "-1", "-o", stopped, parts); code != exitInvalid || !strings.Contains(errOut, "--verify") {
		t.Errorf("--verify -1: exit %d\n%s", code, errOut)
	}
	_, help, _ := ressim("merge", "--help")
	for _, flag := range []string{"--max-events", "--max-memory", "--timeout", "--verify ", "--verify-seed", "--jobs"} {
		if !strings.Contains(help, flag) {
			t.Errorf("merge --help lacks %s", flag)
		}
	}
}
