package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ctmcFile is a small retrying system in the CTMC class.
const ctmcFile = `schema = 1

[experiment]
name = "ctmc-small"
duration = "10m"

[[client]]
name = "users"
target = "api"
rate = 7
timeout = "1s"
retry = { attempts = 3, backoff = "constant", base = "500ms" }

[[service]]
name = "api"
workers = 1
queue_capacity = 19
service_time = { dist = "exponential", mean = "100ms" }
`

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCtmcCommand: the command writes ctmc.json with modes summing to 1,
// finite positive first-passage times, a truncation error under its
// bound, and the same bytes twice.
func TestCtmcCommand(t *testing.T) {
	file := writeTemp(t, "small.toml", ctmcFile)
	var prev []byte
	for i := range 2 {
		dir := filepath.Join(t.TempDir(), "ctmc")
		out := runOK(t, "ctmc", file, "-o", dir)
		b, err := os.ReadFile(filepath.Join(dir, "ctmc.json"))
		if err != nil {
			t.Fatal(err)
		}
		var d ctmcDoc
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if math.Abs(d.Modes.LowMass+d.Modes.HighMass-1) > 1e-12 || !(d.TruncationError < d.TruncationBound) || d.TruncationBound != 1e-12 {
			t.Errorf("modes %+v, truncation %v < %v", d.Modes, d.TruncationError, d.TruncationBound)
		}
		for _, v := range []float64{d.LowToHighS, d.HighToLowS} {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Errorf("first passage %v", v)
			}
		}
		if d.States != 20*(d.OrbitMax+1)+d.OrbitMax+1 || len(d.MarginalN) != 21 || len(d.MarginalM) != d.OrbitMax+1 || len(d.Approximations) == 0 {
			t.Errorf("states %d, M %d, marginals %d and %d, approximations %q", d.States, d.OrbitMax, len(d.MarginalN), len(d.MarginalM), d.Approximations)
		}
		if !strings.Contains(out, "mean first passage") || !strings.Contains(out, "approximation:") {
			t.Errorf("output:\n%s", out)
		}
		if i == 1 && !bytes.Equal(prev, b) {
			t.Error("ctmc.json differs between two runs")
		}
		prev = b
	}
}

// TestCtmcUsage: files outside the class, bad flags and state spaces over
// the limit are usage errors (exit 2) with a reason.
func TestCtmcUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"ctmc"}, "accepts 1 arg"},
		{"two services", []string{"ctmc", "../../experiments/bulkhead.toml"}, "not in the CTMC class"},
		{"no backoff", []string{"ctmc", "../../experiments/metastable-retry-storm.toml"}, "deadline"},
		{"lognormal work", []string{"ctmc", writeTemp(t, "ln.toml", strings.Replace(ctmcFile, `dist = "exponential"`, `dist = "lognormal", sigma = 0.5`, 1))}, "must be exponential"},
		{"backoff none", []string{"ctmc", writeTemp(t, "none.toml", strings.Replace(ctmcFile, `backoff = "constant", base = "500ms"`, `backoff = "none"`, 1))}, "backoff none"},
		{"too large", []string{"ctmc", writeTemp(t, "big.toml", strings.Replace(ctmcFile, "queue_capacity = 19", "queue_capacity = 100000", 1))}, "state space too large"},
		{"bad truncation", []string{"ctmc", writeTemp(t, "ok.toml", ctmcFile), "--truncation", "0.5"}, "--truncation"},
	} {
		code, _, e := ressim(append(tc.args, "-o", filepath.Join(dir, "out"))...)
		if code != exitInvalid || !strings.Contains(e, tc.want) {
			t.Errorf("%s: exit %d, stderr %q: want %d and %q", tc.name, code, e, exitInvalid, tc.want)
		}
	}
}

// TestCtmcExactLevel: a file in the exact class is solved as its exact
// chain (no approximations listed), and --level gives the library's
// probability, written in ctmc.json with ctmc.png beside it.
func TestCtmcExactLevel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ctmc")
	out := runOK(t, "ctmc", "../../sim/ctmc/testdata/exact-small.toml", "--level", "12", "-o", dir)
	b, err := os.ReadFile(filepath.Join(dir, "ctmc.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d ctmcExactDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	// The chain's value at rate 2 (TestSplittingAgreesWithChain in
	// sim/run/rare checks it against simulation): 0.009324.
	if d.Level == nil || math.Abs(d.Level.Probability-0.009324) > 5e-6 || len(d.Approximations) != 0 || d.States != 8191 || len(d.MarginalN) != 13 {
		t.Errorf("level %+v, approximations %q, states %d, marginal %d", d.Level, d.Approximations, d.States, len(d.MarginalN))
	}
	if !strings.Contains(out, "approximates nothing") || !strings.Contains(out, "P(at least 12 at the service") {
		t.Errorf("output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "ctmc.png")); err != nil {
		t.Error(err)
	}
	// The orbit chain takes --level too; --level 0 is refused.
	file := writeTemp(t, "small.toml", ctmcFile)
	out = runOK(t, "ctmc", file, "--level", "15", "--within", "1m", "-o", filepath.Join(t.TempDir(), "o"))
	if !strings.Contains(out, "P(at least 15 at the service at an interval end within 60s)") {
		t.Errorf("output:\n%s", out)
	}
	if code, _, e := ressim("ctmc", file, "--level", "0", "-o", t.TempDir()); code != exitInvalid || !strings.Contains(e, "--level") {
		t.Errorf("--level 0: exit %d, %q", code, e)
	}
}

// TestCtmcEstimate: --estimate prints the chain's size before any
// solving, for the orbit chain (21 places, n 0..c+K) and the exact one
// (8191 sequences: the sum over n <= 12 of 2^n), and writes nothing.
func TestCtmcEstimate(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{writeTemp(t, "small.toml", ctmcFile), "ctmc-small: orbit chain of 21 x (M+1) states"},
		{"../../sim/ctmc/testdata/exact-small.toml", "exact chain of 8191 states (at most 2000000) (estimate)"},
	} {
		dir := filepath.Join(t.TempDir(), "ctmc")
		out := runOK(t, "ctmc", c.file, "--estimate", "-o", dir)
		if !strings.Contains(out, c.want) || strings.Contains(out, "outputs in") {
			t.Errorf("%s: output\n%s\nwant %q and nothing solved", c.file, out, c.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: --estimate wrote %s (%v)", c.file, dir, err)
		}
	}
}
