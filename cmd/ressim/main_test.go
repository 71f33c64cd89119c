package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func ressim(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = execute(args, &o, &e)
	return code, o.String(), e.String()
}

const small = "../../sim/run/testdata/small.toml"

func TestRun(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := ressim("run", small, "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"small: seed 42", "  service api: ", "rejected", "  service db: ", "outputs in " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"summary.json", "timeseries.csv", "events.csv", "overview.png", "timeline-api.png", "timeline-db.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestRunSVG(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := ressim("run", small, "-o", dir, "--svg"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"overview.svg", "timeline-api.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestRunNoPlotsAndSeed(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := ressim("run", small, "-o", dir, "--no-plots", "--seed", "9")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "seed 9") {
		t.Errorf("seed override not reported:\n%s", out)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.png")); len(m) != 0 {
		t.Errorf("--no-plots wrote %v", m)
	}
}

func TestExitCodes(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("schema = 1\n[experiment]\nname = \"x\"\nduration = \"-1s\"\n"), 0o644)
	tests := []struct {
		args    []string
		code    int
		inError string
	}{
		{[]string{"validate", small}, exitOK, ""},
		{[]string{"validate", bad}, exitInvalid, bad + ":4:1: experiment.duration"},
		{[]string{"run", bad}, exitInvalid, "experiment.duration"},
		{[]string{"run", "no-such-file.toml"}, exitInvalid, "no such file"},
		{[]string{"run"}, exitInvalid, "accepts 1 arg"},
		{[]string{"run", small, "--frobnicate"}, exitInvalid, "unknown flag"},
		{[]string{"run", small, "--seed", "-3"}, exitInvalid, "invalid argument"},
		{[]string{"explode"}, exitInvalid, "unknown command"},
		{[]string{"run", small, "-o", "/proc/forbidden/dir", "--no-plots"}, exitFailure, "forbidden"},
	}
	for _, tt := range tests {
		code, _, errOut := ressim(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.inError) {
			t.Errorf("ressim %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.inError)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"validate", "--help"}, {"completion", "bash"}} {
		code, out, _ := ressim(args...)
		if code != exitOK || len(out) < 100 {
			t.Errorf("ressim %v: exit %d, %d bytes of output", args, code, len(out))
		}
	}
	code, out, _ := ressim("version")
	if code != exitOK || !strings.HasPrefix(out, "ressim ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestExpectationsExitCode(t *testing.T) {
	src, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		expect string
		code   int
	}{
		{"[[expect]]\nmetric = \"goodput\"\nmin = 1\n", exitOK},
		{"[[expect]]\nmetric = \"goodput\"\nmin = 1e6\n", exitExpect},
		{"[[expect]]\nmetric = \"goodput\"\n", exitInvalid},
		{"[[expect]]\nmetric = \"speed\"\nmin = 1\n", exitInvalid},
	} {
		f := filepath.Join(dir, "e.toml")
		os.WriteFile(f, append(append([]byte{}, src...), "\n"+tt.expect...), 0o644)
		for _, cmd := range []string{"run", "compare"} {
			code, out, errOut := ressim(cmd, f, "-o", filepath.Join(dir, cmd), "--no-plots")
			if code != tt.code {
				t.Errorf("%s with %q: exit %d, want %d\n%s%s", cmd, tt.expect, code, tt.code, out, errOut)
			}
		}
	}
}

func TestCompareAndSweepCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := ressim("compare", "../../sim/run/testdata/variants.toml", "-o", dir, "-j", "2", "--no-plots")
	if code != exitOK || !strings.Contains(out, "no-retries") || !strings.Contains(out, "Δ") {
		t.Errorf("compare: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = ressim("sweep", small, "-o", dir)
	if code != exitInvalid || !strings.Contains(errOut, "no [sweep]") {
		t.Errorf("sweep without a [sweep] table: exit %d, %s", code, errOut)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	bar := progressBar(&b, "runs")
	bar(1, 4)
	bar(4, 4)
	if got := b.String(); !strings.Contains(got, "] 1/4 runs") || !strings.Contains(got, "[==============================] 4/4 runs\n") {
		t.Errorf("progress bar drew %q", got)
	}
	b.Reset()
	sim := simProgress(&b)
	for _, now := range []time.Duration{0, 1, 2, 500, 1000} {
		sim(now, 1000)
	}
	if n := strings.Count(b.String(), "\r"); n != 3 {
		t.Errorf("simulated-time bar redrew %d times for 0 %%, 50 %%, 100 %%; want 3", n)
	}
}
