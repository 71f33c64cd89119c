package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary act as ressim itself (TestMain), so that
// the process tests run the real command, signals and exit included,
// without building a separate binary.
const childEnv = "RESSIM_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// command returns ressim args as a child process.
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	return cmd
}

// fileSet is the files of a folder (not its subfolders) and their digests.
func fileSet(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string][32]byte{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		set[e.Name()] = sha256.Sum256(b)
	}
	return set
}

func sameSet(a, b map[string][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// reference runs args to completion into dir and returns the set and the
// wall time it took.
func reference(t *testing.T, dir string, args ...string) (map[string][32]byte, time.Duration) {
	t.Helper()
	start := time.Now()
	if out, err := command(t, append(args, "-o", dir)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return fileSet(t, dir), time.Since(start)
}

// TestKillLeavesACompleteSet kills ressim run and ressim compare at random
// points (10 each, uniformly within a whole run's wall time) and
// checks that the output folder always holds the complete old set or the
// complete new one, never a mix; a following complete run leaves no
// staging folder behind.
func TestKillLeavesACompleteSet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 processes")
	}
	cases := []struct {
		name string
		args []string
		seed string
	}{
		{"run", []string{"run", small}, "7"},
		{"compare", []string{"compare", "../../sim/run/testdata/variants.toml", "-j", "2", "--no-plots"}, "8"},
	}
	rng := rand.New(rand.NewPCG(10, 1))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "out")
			oldSet, _ := reference(t, filepath.Join(t.TempDir(), "old"), c.args...)
			newArgs := append(append([]string{}, c.args...), "--seed", c.seed)
			newSet, took := reference(t, filepath.Join(t.TempDir(), "new"), newArgs...)
			reference(t, out, c.args...)
			// Each kill targets a run that writes the set the folder does
			// not hold, so that "unchanged" and "replaced" are told apart.
			sets := [2]map[string][32]byte{oldSet, newSet}
			argv := [2][]string{c.args, newArgs}
			cur, kept := 0, 0
			for i := 0; i < 10; i++ {
				next := 1 - cur
				cmd := command(t, append(argv[next], "-o", out)...)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				delay := time.Duration(rng.Float64() * float64(took))
				timer := time.AfterFunc(delay, func() { cmd.Process.Kill() })
				cmd.Wait()
				timer.Stop()
				got := fileSet(t, out)
				switch {
				case sameSet(got, sets[cur]):
					kept++
				case sameSet(got, sets[next]):
					cur = next
				default:
					t.Fatalf("kill after %v: the folder holds neither the old nor the new set: %d files", delay, len(got))
				}
			}
			t.Logf("%d of 10 kills left the previous set, %d came after the commit", kept, 10-kept)
			reference(t, out, c.args...)
			ents, _ := os.ReadDir(parent)
			if len(ents) != 1 || ents[0].Name() != "out" {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Fatalf("left beside the output folder after a complete run: %v", names)
			}
		})
	}
}

// TestSigtermKeepsFinishedReplications: SIGTERM after some replications
// finished (their spooled series are the evidence) stops ressim compare,
// which writes those replications and exits with status 1.
func TestSigtermKeepsFinishedReplications(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "cmp")
	cmd := command(t, "compare", "../../sim/run/testdata/variants.toml", "-j", "2", "--replications", "500",
		"--series", "all", "--no-plots", "-o", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	spooled := func() int {
		m, _ := filepath.Glob(filepath.Join(parent, ".cmp.ressim-tmp-*", ".series-spool", "*.csv"))
		return len(m)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for spooled() < 9 { // 3 variants x 3 replications at least
		select {
		case <-tick.C:
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("no replication finished in 20 s")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure {
		t.Fatalf("exit %v, want %d; stderr %s", err, exitFailure, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted: kept the") {
		t.Errorf("stderr %q", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "compare.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Replications int `json:"replications"`
		Variants     []struct {
			Runs []json.RawMessage `json:"replications"`
		} `json:"variants"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Replications < 1 || doc.Replications >= 500 || len(doc.Variants) != 3 {
		t.Fatalf("compare.json: %d replications, %d variants", doc.Replications, len(doc.Variants))
	}
	for _, v := range doc.Variants {
		if len(v.Runs) != doc.Replications {
			t.Errorf("a variant lists %d replications, want %d", len(v.Runs), doc.Replications)
		}
	}
}

// TestSecondSignalStopsAtOnce: two SIGTERMs in a row end ressim compare
// with status 1 whatever it was doing; the output folder is then absent
// (nothing was committed) or a complete set, and no staging folder
// outlives the next run.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "cmp")
	args := []string{"compare", "../../sim/run/testdata/variants.toml", "-j", "2", "--series", "all", "--no-plots", "-o", out}
	cmd := command(t, append(args, "--replications", "500")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for {
		m, _ := filepath.Glob(filepath.Join(parent, ".cmp.ressim-tmp-*", ".series-spool", "*.csv"))
		if len(m) > 0 {
			break
		}
		select {
		case <-tick.C:
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("no run finished in 20 s")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure {
		t.Fatalf("exit %v, want %d; stderr %s", err, exitFailure, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		if _, err := os.ReadFile(filepath.Join(out, "compare.json")); err != nil {
			t.Fatalf("a committed set without compare.json: %v", err)
		}
	}
	reference(t, out, args[:len(args)-2]...)
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 {
		t.Fatalf("%d entries beside the output folder after a complete run", len(ents)-1)
	}
}
