package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
)

// TestAlertsCmd runs the degraded-200 rules on breaker-fallback's 40 s
// hang, evaluated every 5 s: the fallback alert (for: 5m) cannot fire,
// the goodput SLO (for: 2m) cannot either within the 100 s run, so the
// report says so; the promtool test file is written and passes.
func TestAlertsCmd(t *testing.T) {
	promtooltest.Require(t)
	out := filepath.Join(t.TempDir(), "bf.test.yml")
	code, stdout, stderr := ressim("alerts", "../../experiments/breaker-fallback.toml",
		"--rules", "../../experiments/alerts/degraded-200.rules.yml", "--eval-interval", "5s", "--promtool-test", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`fault "recommendations slow x250" (20s-1m0s):`, "FallbackServedTooLong: did not fire",
		"AvailabilitySLONaive: did not fire", "baseline (the same run without faults): 0 false alarm(s)", "promtool test file " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "alert_rule_test:") {
		t.Errorf("%s: %v", out, err)
	}
}

func TestAlertsCmdUsage(t *testing.T) {
	if code, _, _ := ressim("alerts", "../../experiments/bulkhead.toml"); code != exitInvalid {
		t.Errorf("without --rules or [alerts]: exit %d, want %d", code, exitInvalid)
	}
	if code, _, _ := ressim("alerts", "../../experiments/breaker-fallback.toml", "--rules", "no-such.yml"); code != exitInvalid {
		t.Errorf("missing rules file: exit %d, want %d", code, exitInvalid)
	}
}

// TestAlertsCmdExpect: expectations that hold exit 0 and print ok; a
// failing one exits with exitExpect; a malformed one is a usage error.
func TestAlertsCmdExpect(t *testing.T) {
	promtooltest.Require(t)
	args := []string{"alerts", "../../experiments/breaker-fallback.toml", "--rules", "../../experiments/alerts/degraded-200.rules.yml",
		"--eval-interval", "5s", "--expect", "AvailabilitySLONaive silent", "--expect", "no false alarms"}
	code, stdout, stderr := ressim(args...)
	if code != exitOK || strings.Count(stdout, "expect ok  ") != 2 {
		t.Errorf("holding expectations: exit %d\n%s%s", code, stdout, stderr)
	}
	// The fallback alert waits 5 minutes (for: 5m); the run lasts 100 s.
	code, stdout, _ = ressim(append(args, "--expect", "FallbackServedTooLong fires within 6m")...)
	if code != exitExpect || !strings.Contains(stdout, `expect FAIL FallbackServedTooLong fires within 6m: did not fire in "recommendations slow x250"`) {
		t.Errorf("failing expectation: exit %d\n%s", code, stdout)
	}
	if code, _, _ := ressim(append(args, "--expect", "FallbackServedTooLong fires soon")...); code != exitInvalid {
		t.Errorf("malformed expectation: exit %d, want %d", code, exitInvalid)
	}
}

// alertsCopy copies degraded-200.toml, with the replacements (old, new
// pairs) applied, and its rules file into a new folder; it returns the
// experiment's path.
func alertsCopy(t *testing.T, repl ...string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("../../experiments/alerts/degraded-200.toml")
	if err != nil {
		t.Fatal(err)
	}
	toml := string(src)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(toml, repl[i]) {
			t.Fatalf("degraded-200.toml has no %q", repl[i])
		}
		toml = strings.Replace(toml, repl[i], repl[i+1], 1)
	}
	rules, err := os.ReadFile("../../experiments/alerts/degraded-200.rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "degraded-200.toml")
	if err := os.WriteFile(p, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "degraded-200.rules.yml"), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAlertsCmdFileExpect: without --rules, ressim alerts takes the rules
// and the expectations from the experiment file: the bundled ones hold
// (exit 0); a tightened one fails (exit 3) and names its line; an
// expectation on an alert the rules do not declare is an invalid file
// (exit 2) at the alert key; --rules replaces the file's rules and skips
// its expectations.
func TestAlertsCmdFileExpect(t *testing.T) {
	promtooltest.Require(t)
	code, stdout, stderr := ressim("alerts", "../../experiments/alerts/degraded-200.toml")
	if code != exitOK || strings.Count(stdout, "expect ok  ") != 5 {
		t.Fatalf("bundled: exit %d\n%s%s", code, stdout, stderr)
	}
	// FallbackServedTooLong fires 5m15s in (for: 5m, evaluated every 15 s).
	p := alertsCopy(t, `fires_within = "6m"`, `fires_within = "5m"`)
	code, stdout, _ = ressim("alerts", p)
	if want := p + `:66: FallbackServedTooLong fires within 5m0s in "recommendations hangs": fired 5m15s after`; code != exitExpect || !strings.Contains(stdout, "expect FAIL "+want) {
		t.Errorf("tightened: exit %d, want %d and %q\n%s", code, exitExpect, want, stdout)
	}
	p = alertsCopy(t, `alert = "GoodputSLO"`, `alert = "GoodputSLo"`)
	code, _, stderr = ressim("alerts", p)
	if want := p + `:79:1: expect[2].alert: no alert named "GoodputSLo" in the rules file`; code != exitInvalid || !strings.Contains(stderr, want) {
		t.Errorf("unknown alert: exit %d, want %d and %q\n%s", code, exitInvalid, want, stderr)
	}
	code, stdout, _ = ressim("alerts", "../../experiments/alerts/degraded-200.toml", "--rules", "../../experiments/alerts/patterns.rules.yml")
	if code != exitOK || !strings.Contains(stdout, "5 [[expect]] block(s) on alerts are not checked") || strings.Contains(stdout, "expect ") {
		t.Errorf("--rules: exit %d\n%s", code, stdout)
	}
}

// TestAlertsCmdRulesPath: the [alerts] rules path cannot leave the
// experiment file's folder: ".." is refused by the loader, and a symbolic
// link pointing outside is refused when the file is opened.
func TestAlertsCmdRulesPath(t *testing.T) {
	p := alertsCopy(t, `rules = "degraded-200.rules.yml"`, `rules = "../degraded-200.rules.yml"`)
	code, _, stderr := ressim("alerts", p)
	if code != exitInvalid || !strings.Contains(stderr, p+":61:1: alerts.rules:") {
		t.Errorf("..: exit %d\n%s", code, stderr)
	}
	p = alertsCopy(t, `rules = "degraded-200.rules.yml"`, `rules = "link.yml"`)
	outside := filepath.Join(t.TempDir(), "outside.yml")
	if err := os.WriteFile(outside, []byte("groups: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(filepath.Dir(p), "link.yml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	code, _, stderr = ressim("alerts", p)
	if code != exitInvalid || !strings.Contains(stderr, `[alerts] rules "link.yml"`) {
		t.Errorf("symlink out: exit %d\n%s", code, stderr)
	}
}

// TestAlertsCmdTiming (issue 32): an alert firing without faults is a
// false alarm with no time to detect, and the report leads with one line
// per fault; a burn rate still firing at the end of the retry-budget
// variant's 10 minutes gets its time to resolve from the run extended
// by the default horizon (30m: the slow burn's short window), which the
// report states; --horizon 0 keeps the run's duration and says it is
// still firing; a negative horizon is a usage error.
func TestAlertsCmdTiming(t *testing.T) {
	promtooltest.Require(t)
	rules := filepath.Join(t.TempDir(), "always.yml")
	if err := os.WriteFile(rules, []byte("groups:\n  - name: g\n    rules:\n      - alert: Always\n        expr: vector(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := ressim("alerts", "../../experiments/breaker-fallback.toml", "--rules", rules, "--eval-interval", "5s")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "time to detect") || !strings.Contains(stdout, `fault "recommendations slow x250": MISSED: only false alarms fired; false alarm (fires without faults too): Always`) {
		t.Errorf("vector(1):\n%s", stdout)
	}
	args := []string{"alerts", "../../experiments/metastable-retry-storm.toml", "--variant", "retry-budget", "--replication", "0"}
	code, stdout, stderr = ressim(args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"run extended by 30m0s past its 10m0s",
		`fault "api slow x5": detected by GoodputBudgetSlowBurn{severity="page"} after 15s (first of 2 alerts); resolved 30m10s after its end`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("retry-budget lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, _ = ressim(append(args, "--horizon", "0")...)
	if code != exitOK || strings.Contains(stdout, "extended") || !strings.Contains(stdout, `GoodputBudgetSlowBurn{severity="page"} still firing at the end of the run`) {
		t.Errorf("--horizon 0: exit %d\n%s", code, stdout)
	}
	if code, _, _ := ressim(append(args, "--horizon", "-1m")...); code != exitInvalid {
		t.Errorf("--horizon -1m: exit %d, want %d", code, exitInvalid)
	}
}
