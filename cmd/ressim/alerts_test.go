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
	if code, _, _ := ressim("alerts", "../../experiments/breaker-fallback.toml"); code != exitInvalid {
		t.Errorf("without --rules: exit %d, want %d", code, exitInvalid)
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
