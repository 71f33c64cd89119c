package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"
)

// killReps makes sweep-small's shards long enough to be caught part-way:
// 12 cells x 10 replications = 120 units, shardUnits per shard of 2, each
// a run of ten simulated seconds (some 5 ms; the poll looks every 2 ms).
const (
	killReps   = "10"
	shardUnits = 60
)

// unitLines is the number of whole unit lines in a partial file (every
// line after the header that ends in its newline).
func unitLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return max(bytes.Count(b, []byte("\n"))-1, 0)
}

// startShardUntil starts `ressim sweep sweep-small --shard spec` into
// dir and waits, polling the partial file (no sleep: a ticker bounded by
// a deadline), until it holds at least n units.
func startShardUntil(t *testing.T, spec, dir string, n int) (*exec.Cmd, *bytes.Buffer, string) {
	t.Helper()
	cmd := command(t, "sweep", smallSweep, "--shard", spec, "--replications", killReps, "-j", "1", "-o", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("sweep-shard-%05d-of-%05d.partial.jsonl", int(spec[0]-'0'), 2))
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
	for unitLines(path) < n {
		select {
		case <-tick.C:
		case <-deadline:
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("shard %s wrote fewer than %d units in 60 s:\n%s", spec, n, out.String())
		}
	}
	return cmd, &out, path
}

// runShardToEnd runs shard spec into dir to completion and returns what
// it printed.
func runShardToEnd(t *testing.T, spec, dir string) string {
	t.Helper()
	out, err := command(t, "sweep", smallSweep, "--shard", spec, "--replications", killReps, "-j", "2", "-o", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("shard %s: %v\n%s", spec, err, out)
	}
	return string(out)
}

// mergeEqualsUnsharded merges the partial files in parts and compares
// the outputs, file by file, with the unsharded sweep's.
func mergeEqualsUnsharded(t *testing.T, parts string) {
	t.Helper()
	full := filepath.Join(t.TempDir(), "full")
	if out, err := command(t, "sweep", smallSweep, "--replications", killReps, "-j", "2", "-o", full).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if out, err := command(t, "merge", "-o", merged, parts).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	if a, b := fileSet(t, full), fileSet(t, merged); len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Errorf("merged outputs differ from the unsharded sweep's: %d vs %d files", len(a), len(b))
	}
}

// TestShardSigkillResumes: a shard killed with SIGKILL part-way (after it
// wrote some units, before all) keeps the units it wrote; re-run, it
// resumes after them, and the merge of both shards is byte-identical to
// the unsharded sweep.
func TestShardSigkillResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 5 processes")
	}
	parts := t.TempDir()
	cmd, _, path := startShardUntil(t, "1/2", parts, 5)
	cmd.Process.Kill() // SIGKILL: no handler runs
	cmd.Wait()
	kept := unitLines(path)
	t.Logf("SIGKILL after %d of %d units", kept, shardUnits)
	if kept >= shardUnits {
		t.Skipf("the shard finished its %d units before the kill reached it", shardUnits)
	}
	out := runShardToEnd(t, "1/2", parts)
	want := fmt.Sprintf("%d unit(s), %d resumed, %d run", shardUnits, kept, shardUnits-kept)
	if !bytes.Contains([]byte(out), []byte(want)) {
		t.Fatalf("resume after SIGKILL with %d units written: %q, want %q", kept, out, want)
	}
	runShardToEnd(t, "0/2", parts)
	mergeEqualsUnsharded(t, parts)
}

// TestShardSigtermKeepsUnits: SIGTERM stops a shard, which exits with
// status 1 and keeps every unit it finished, whole (no torn line): the
// re-run resumes them all and runs only the rest.
func TestShardSigtermKeepsUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 5 processes")
	}
	parts := t.TempDir()
	cmd, out, path := startShardUntil(t, "0/2", parts, 5)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure {
		t.Fatalf("exit %v after SIGTERM, want %d:\n%s", err, exitFailure, out.String())
	}
	b, _ := os.ReadFile(path)
	kept := unitLines(path)
	t.Logf("SIGTERM after %d of %d units", kept, shardUnits)
	if kept < 5 || !bytes.HasSuffix(b, []byte("\n")) {
		t.Fatalf("after SIGTERM the partial file holds %d units, last byte %q; want at least 5, whole", kept, b[len(b)-1:])
	}
	if kept < shardUnits {
		resumed := runShardToEnd(t, "0/2", parts)
		want := fmt.Sprintf("%d unit(s), %d resumed, %d run", shardUnits, kept, shardUnits-kept)
		if !bytes.Contains([]byte(resumed), []byte(want)) {
			t.Fatalf("resume after SIGTERM with %d units: %q, want %q", kept, resumed, want)
		}
	}
	runShardToEnd(t, "1/2", parts)
	mergeEqualsUnsharded(t, parts)
}
