// Package tooltest finds the outside programs a test needs (go, node,
// Chromium, promtool): a test without one is skipped on a developer's
// machine and fails in CI (CI set), where .ci/run installs them all.
// Tests only.
package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run in CI (the CI variable is set).
func InCI() bool { return os.Getenv("CI") != "" }

// Need returns the path of the first of names on the PATH. With none, it
// skips t, or fails it in CI.
func Need(t testing.TB, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if InCI() {
		t.Fatalf("none of %v installed, and CI is set", names)
		return ""
	}
	t.Skipf("none of %v installed", names)
	return ""
}
