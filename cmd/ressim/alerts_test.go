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
