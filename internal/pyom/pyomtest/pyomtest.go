// Package pyomtest lets tests require the reference OpenMetrics parser:
// they skip without it on a developer's machine and fail without it in CI
// (environment variable CI set), where .ci/run installs
// python3-prometheus-client.
package pyomtest

import (
	"os"
	"testing"

	"github.com/ressim/ressim/internal/pyom"
)

// Require returns the python3 to pass to pyom.Parse; without one it skips
// the test, or fails it when the environment variable CI is set.
func Require(t testing.TB) string {
	t.Helper()
	p, err := pyom.Path()
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%v; CI is set, so .ci/run should have installed it", err)
	}
	t.Skipf("%v; skipping (set CI to make this a failure)", err)
	return ""
}
