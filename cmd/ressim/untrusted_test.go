package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeExp writes an experiment file into a temporary folder.
func writeExp(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "exp.toml")
	if err := os.WriteFile(p, []byte("schema = 1\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// header is an [experiment] table of the given duration.
func header(duration string, extra string) string {
	return fmt.Sprintf("[experiment]\nname = \"hostile\"\nduration = %q\nseed = 1\n%s\n", duration, extra)
}

// hostileFiles are the small valid files of issue 10 that exhausted the
// memory or never finished on main; each must now be refused before
// running (the estimate) or stopped by a budget, with exit status 4 and
// a message naming the budget.
func hostileFiles() map[string]struct{ body, want string } {
	var services strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&services, "[[service]]\nname = \"s%d\"\nworkers = 1\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n", i)
	}
	parallel := func(callee string, n int) string {
		var b strings.Builder
		b.WriteString("  [[service.step]]\n  parallel = [\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "{call=%q},", callee)
		}
		b.WriteString("  ]\n")
		return b.String()
	}
	var seq strings.Builder
	for i := 0; i < 1000; i++ {
		seq.WriteString("  [[service.step]]\n  call = \"leaf\"\n  timeout = \"1s\"\n")
	}
	leaf := "[[service]]\nname = \"leaf\"\nworkers = 10\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n"
	return map[string]struct{ body, want string }{
		"closed-loop millions of users": {header("1h", "") +
			"[[client]]\nname = \"u\"\ntarget = \"leaf\"\nusers = 10000000\nthink_time = { dist = \"constant\", mean = \"1ms\" }\n" + leaf,
			"events budget refused"},
		"hundreds of services at 1 ms": {header("1000s", "interval = \"1ms\"") +
			"[[client]]\nname = \"c\"\ntarget = \"s0\"\nrate = 1\n" + services.String(),
			"memory budget refused"},
		"two layers of 20000-way parallel calls": {header("60s", "") +
			"[[client]]\nname = \"c\"\ntarget = \"top\"\nrate = 1\n[[service]]\nname = \"top\"\nworkers = 10\n" + parallel("mid", 20000) +
			"[[service]]\nname = \"mid\"\nworkers = 10\n" + parallel("leaf", 20000) + leaf,
			"events budget refused"},
		"probe period of 1 ns": {header("1h", "") +
			"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 1\n" + strings.Replace(leaf, "workers = 10\n", "workers = 10\ninstances = 10\nreadiness = { period = \"1ns\", timeout = \"1ns\" }\n", 1),
			"events budget refused"},
		// issue 23: no instances key, so the estimate multiplied the
		// probes by 0 and let 10^10 events run
		"probe period of 1 ns without instances": {header("1h", "") +
			"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 1\n" + strings.Replace(leaf, "workers = 10\n", "workers = 10\nreadiness = { period = \"1ns\", timeout = \"1ns\" }\n", 1),
			"events budget refused"},
		"liveness period of 1 ns without instances": {header("1h", "") +
			"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 1\n" + strings.Replace(leaf, "workers = 10\n", "workers = 10\nliveness = { period = \"1ns\", timeout = \"1ns\" }\n", 1),
			"events budget refused"},
		"thousands of sequential calls": {header("1h", "") +
			"[[client]]\nname = \"c\"\ntarget = \"top\"\nrate = 1000\n[[service]]\nname = \"top\"\nworkers = 10\n" + seq.String() + leaf,
			"events budget refused"},
		"load fault past the maximum rate": {header("1h", "") +
			"[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 1e9\n" + leaf +
			"[[fault]]\nkind = \"load\"\ntarget = \"c\"\nstart = \"1s\"\nduration = \"1h\"\nmultiply = 1000\n",
			"events budget refused"},
	}
}

func TestHostileFilesAreRefused(t *testing.T) {
	for name, f := range hostileFiles() {
		t.Run(name, func(t *testing.T) {
			p := writeExp(t, f.body)
			code, _, errOut := ressim("run", p, "-o", t.TempDir(), "--no-plots")
			if code == exitInvalid && strings.Contains(errOut, p) {
				t.Skipf("the file is now invalid (the parser's bounds): %s", errOut)
			}
			if code != exitBudget || !strings.Contains(errOut, f.want) || !strings.Contains(errOut, "--max-") {
				t.Fatalf("exit %d, stderr %q; want exit %d naming %q and the flag", code, errOut, exitBudget, f.want)
			}
		})
	}
}

// TestUnboundedQueueStopsWithinMemory: an overloaded service with the
// default unbounded queue grows until the memory budget stops it, and the
// error suggests queue_capacity. (The estimate cannot see a queue grow.)
func TestUnboundedQueueStopsWithinMemory(t *testing.T) {
	p := writeExp(t, header("1h", "")+
		"[[client]]\nname = \"c\"\ntarget = \"slow\"\nrate = 200000\n"+
		"[[service]]\nname = \"slow\"\nworkers = 1\nservice_time = { dist = \"constant\", mean = \"1s\" }\n")
	code, _, errOut := ressim("run", p, "-o", t.TempDir(), "--no-plots", "--max-memory", "256MiB")
	if code != exitBudget || !strings.Contains(errOut, "memory budget stopped") || !strings.Contains(errOut, "queue_capacity") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestTimeoutStopsAndKeepsOldOutputs: the wall-time budget stops a run;
// the output folder keeps its previous set.
func TestTimeoutStopsAndKeepsOldOutputs(t *testing.T) {
	dir := t.TempDir()
	if code, _, e := ressim("run", small, "-o", dir, "--no-plots"); code != exitOK {
		t.Fatalf("first run: %d %s", code, e)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	code, _, errOut := ressim("run", "../../experiments/mm10.toml", "-o", dir, "--no-plots", "--timeout", "1ns")
	if code != exitBudget || !strings.Contains(errOut, "wall time budget stopped") || !strings.Contains(errOut, "--timeout") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if string(before) != string(after) {
		t.Fatal("a stopped run changed the previous outputs")
	}
}

// TestBatchCountsRefused: command-line counts beyond the file's bounds,
// and a comparison or sweep whose total is over the budget.
func TestBatchCountsRefused(t *testing.T) {
	storm := "../../experiments/metastable-retry-storm.toml"
	phase := "../../experiments/metastable-phase.toml"
	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", storm, "--replications", "1000000000"}, exitInvalid, "--replications must be in [1, 10000]"},
		{[]string{"compare", storm, "--replications", "-3"}, exitInvalid, "--replications must be in"},
		{[]string{"compare", storm, "-j", "-5"}, exitInvalid, "--jobs must be in [1, 256]"},
		{[]string{"sweep", phase, "-j", "1000"}, exitInvalid, "--jobs must be in [1, 256]"},
		{[]string{"compare", storm, "--seed", "4611686018427387905"}, exitInvalid, "--seed must be in [0, 2^62]"},
		{[]string{"run", small, "--trace", "-1"}, exitInvalid, "--trace must be >= 0"},
		{[]string{"run", small, "--trace", "5", "--trace-format", "jaeger"}, exitInvalid, "--trace-format"},
		{[]string{"run", small, "--trace", "5", "--trace-format", "otlp", "--openmetrics-start", "soon"}, exitInvalid, "--openmetrics-start"},
		{[]string{"run", small, "--max-memory", "lots"}, exitInvalid, "--max-memory"},
		{[]string{"run", small, "--timeout", "-1s"}, exitInvalid, "--timeout must be >= 0"},
		{[]string{"completion", "tcsh"}, exitInvalid, "unsupported shell"},
		{[]string{"compare", storm, "--replications", "10000"}, exitBudget, "events budget refused"},
		{[]string{"sweep", phase, "--replications", "10000"}, exitBudget, "times the 540000 runs"},
	}
	for _, s := range steps {
		args := append(s.args, "-o", t.TempDir())
		if s.args[0] == "completion" {
			args = s.args
		}
		code, _, errOut := ressim(args...)
		if code != s.code || !strings.Contains(errOut, s.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", s.args, code, errOut, s.code, s.want)
		}
	}
}
