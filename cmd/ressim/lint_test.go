package main

import (
	"encoding/json"
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
