package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// TestLintExit: lint's exit status follows --fail-on (6 at or above the
// threshold), its formats parse, and bad flags are usage errors (2).
func TestLintExit(t *testing.T) {
	const amp = "../../experiments/retry-amplification.toml" // RS007 errors
	const trap = "../../experiments/checkout-pool-exhaustion.toml"
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"lint", amp}, exitLint},
		{[]string{"lint", "--fail-on", "never", amp}, exitOK},
		{[]string{"lint", "--variant", "retry-at-the-edge", amp}, exitOK},
		{[]string{"lint", "--variant", "retry-at-the-edge", "--fail-on", "warning", amp}, exitLint},
		{[]string{"lint", "--variant", "timeout-100ms", trap}, exitOK},
		{[]string{"lint", "--variant", "base", trap}, exitLint},
		{[]string{"lint", "--variant", "nope", amp}, exitInvalid},
		{[]string{"lint", "--format", "xml", amp}, exitInvalid},
		{[]string{"lint", "--fail-on", "sometimes", amp}, exitInvalid},
		{[]string{"lint", "no-such-file.toml"}, exitInvalid},
	}
	for _, c := range cases {
		var o, e strings.Builder
		if got := execute(c.args, &o, &e); got != c.want {
			t.Errorf("%v: exit %d, want %d; stderr %q", c.args, got, c.want, e.String())
		}
	}
	for _, f := range []string{"json", "sarif"} {
		var o, e strings.Builder
		execute([]string{"lint", "--format", f, amp}, &o, &e)
		var v map[string]any
		if err := json.Unmarshal([]byte(o.String()), &v); err != nil {
			t.Errorf("--format %s: not JSON: %v", f, err)
		}
	}
}

// TestImportThenLint: an imported gRPC config is a valid experiment that
// lint accepts; a method config with both a retryPolicy and a
// hedgingPolicy, which gRPC refuses, is an error (exit 2) with its
// position.
func TestImportThenLint(t *testing.T) {
	dir := t.TempDir()
	out := dir + "/exp.toml"
	var o, e strings.Builder
	if code := execute([]string{"import", "grpc", "../../sim/importer/testdata/grpc-retry.json", "-o", out}, &o, &e); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, e.String())
	}
	if code := execute([]string{"lint", "--fail-on", "error", out}, &o, &e); code != exitOK {
		t.Fatalf("lint of the import: exit %d: %s", code, o.String())
	}
	bad := dir + "/bad.json"
	if err := os.WriteFile(bad, []byte(`{"methodConfig": [{"name": [{"service": "a"}], "hedgingPolicy": {"maxAttempts": 2}, "retryPolicy": {}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e.Reset()
	if code := execute([]string{"import", "grpc", bad}, &o, &e); code != exitInvalid || !strings.Contains(e.String(), "bad.json:1:85: methodConfig[0].retryPolicy: a method config has a retryPolicy or a hedgingPolicy, not both") {
		t.Fatalf("retry and hedging: exit %d, stderr %q", code, e.String())
	}
}

// TestLintImported: lint --import reports at the source file's lines.
func TestLintImported(t *testing.T) {
	var o, e strings.Builder
	code := execute([]string{"lint", "--import", "resilience4j", "--fail-on", "never", "../../sim/importer/testdata/resilience4j.yml"}, &o, &e)
	if code != exitOK || !strings.Contains(o.String(), "sim/importer/testdata/resilience4j.yml:44:7: warning RS005") {
		t.Fatalf("exit %d, output %s", code, o.String())
	}
}

// TestLintIstio: lint --import istio reports at the Istio YAML's lines:
// the default retries of the ratings route have no budget (RS006).
func TestLintIstio(t *testing.T) {
	var o, e strings.Builder
	code := execute([]string{"lint", "--import", "istio", "--fail-on", "never", "../../sim/importer/testdata/istio-bookinfo.yaml"}, &o, &e)
	if code != exitOK || !strings.Contains(o.String(), "sim/importer/testdata/istio-bookinfo.yaml:46:5: warning RS006") {
		t.Fatalf("exit %d, output %s", code, o.String())
	}
}

// TestImportInto: --into with --map merges and validates; an unmapped
// name is exit 2 with its source position.
func TestImportInto(t *testing.T) {
	const dir = "../../sim/importer/testdata/"
	var o, e strings.Builder
	args := []string{"import", "istio", dir + "istio-bookinfo.yaml", "--into", dir + "into-bookinfo.toml",
		"--map", "reviews=productpage:reviews", "--map", "ratings=reviews:ratings"}
	if code := execute(args, &o, &e); code != exitOK || !strings.Contains(o.String(), "retry.attempts = 3 # "+dir+"istio-bookinfo.yaml:46:5") {
		t.Fatalf("exit %d, stderr %s, output %s", code, e.String(), o.String())
	}
	o.Reset()
	e.Reset()
	if code := execute(args[:len(args)-2], &o, &e); code != exitInvalid || !strings.Contains(e.String(), "istio-bookinfo.yaml:44:15") || !strings.Contains(e.String(), `"ratings" is not mapped`) {
		t.Fatalf("unmapped: exit %d, stderr %s", code, e.String())
	}
	if code := execute([]string{"import", "istio", dir + "istio-bookinfo.yaml", "--map", "a=b:c"}, &o, &e); code != exitInvalid {
		t.Fatalf("--map without --into: exit %d", code)
	}
}

// TestLintSimulate: --simulate adds the scenarios to every format, and
// the measured amplification to the RS007 finding.
func TestLintSimulate(t *testing.T) {
	const amp = "../../experiments/retry-amplification.toml"
	var o, e strings.Builder
	if code := execute([]string{"lint", "--simulate", "--variant", "base", amp}, &o, &e); code != exitLint ||
		!strings.Contains(o.String(), "= 27x worst case; measured 26.92x at database under instance-crash (recovered)") {
		t.Fatalf("exit %d, output %s, stderr %s", code, o.String(), e.String())
	}
	o.Reset()
	execute([]string{"lint", "--simulate", "--variant", "base", "--format", "sarif", amp}, &o, &e)
	var v struct {
		Runs []struct {
			Properties struct {
				Scenarios []map[string]any `json:"scenarios"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(o.String()), &v); err != nil || len(v.Runs) != 1 || len(v.Runs[0].Properties.Scenarios) != 4 {
		t.Fatalf("SARIF scenarios: %v, %+v", err, v)
	}
}

// TestLintSimulateTarget: --target aims every scenario of every variant
// at the service asked about (issue 24); an unknown service, or --target
// without --simulate, is a usage error.
func TestLintSimulateTarget(t *testing.T) {
	file := "../../experiments/retry-amplification.toml"
	var out, errOut bytes.Buffer
	code := execute([]string{"lint", file, "--simulate", "--target", "orders", "--format", "json", "--fail-on", "never"}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		Scenarios []struct{ Variant, Target string } `json:"scenarios"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) != 8 {
		t.Fatalf("%d scenarios, want 4 per variant, 2 variants", len(rep.Scenarios))
	}
	for _, s := range rep.Scenarios {
		if s.Target != "orders" {
			t.Errorf("[%s] scenario on %q, want orders", s.Variant, s.Target)
		}
	}
	for _, args := range [][]string{
		{"lint", file, "--simulate", "--target", "nope"},
		{"lint", file, "--target", "orders"},
	} {
		errOut.Reset()
		if code := execute(args, io.Discard, &errOut); code != exitInvalid || !strings.Contains(errOut.String(), "--target") {
			t.Errorf("%v: exit %d, stderr %q; want %d naming --target", args, code, errOut.String(), exitInvalid)
		}
	}
}
