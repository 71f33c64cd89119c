package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// panicWriter panics on the first write: a stand-in for a bug anywhere
// below execute.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("boom\nsecond line") }

// TestInternalErrorIsOneLine: a panic exits exitInternal with one line
// naming it and a request to report the bug, without a stack trace;
// RESSIM_DEBUG=1 adds the stack.
func TestInternalErrorIsOneLine(t *testing.T) {
	var e strings.Builder
	code := execute([]string{"version"}, panicWriter{}, &e)
	lines := strings.Split(strings.TrimSpace(e.String()), "\n")
	if code != exitInternal || len(lines) != 2 || !strings.Contains(lines[0], "internal error: boom ...") ||
		!strings.Contains(lines[1], "this is a bug; please report it") || strings.Contains(e.String(), "goroutine") {
		t.Fatalf("exit %d, stderr %q", code, e.String())
	}
	t.Setenv(debugEnv, "1")
	e.Reset()
	execute([]string{"version"}, panicWriter{}, &e)
	if !strings.Contains(e.String(), "goroutine") {
		t.Fatalf("%s=1 printed no stack: %q", debugEnv, e.String())
	}
}

// TestEveryExitStatus: one command line per documented exit status.
func TestEveryExitStatus(t *testing.T) {
	src, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	expectFail := filepath.Join(t.TempDir(), "expect.toml")
	if err := os.WriteFile(expectFail, append(src, "\n[[expect]]\nmetric = \"goodput\"\nmin = 1e6\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		args []string
		code int
	}{
		{"success", []string{"validate", small}, exitOK},
		{"run failed: output under a file", []string{"run", small, "--no-plots", "-o", small + "/out"}, exitFailure},
		{"invalid command line", []string{"run", small, "--jobs", "2"}, exitInvalid},
		{"invalid file", []string{"validate", "testdata/does-not-exist.toml"}, exitInvalid},
		{"expectation failed", []string{"run", expectFail, "--no-plots"}, exitExpect},
		{"budget", []string{"run", small, "--no-plots", "--max-events", "10"}, exitBudget},
	}
	for _, s := range steps {
		args := s.args
		if s.args[0] == "run" && !contains(strings.Join(args, " "), "-o") {
			args = append(args, "-o", t.TempDir())
		}
		if code, _, e := ressim(args...); code != s.code {
			t.Errorf("%s: %v exit %d, want %d (stderr %q)", s.name, s.args, code, s.code, e)
		}
	}
}

// TestValidatePrintsTheCost: validate prints the cost estimate, the
// comparison's and sweep's totals and the default budget.
func TestValidatePrintsTheCost(t *testing.T) {
	code, out, _ := ressim("validate", "../../experiments/metastable-phase.toml")
	for _, want := range []string{"estimated cost per run:", "driven by client \"users\" rate", "compare: 8 run(s)", "sweep: 432 run(s)", "default budget: 10.0G events"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, stdout lacks %q:\n%s", code, want, out)
		}
	}
}
