// Package promtooltest lets tests require promtool: they skip without it
// on a developer's machine and fail without it in CI (environment variable
// CI set), where .ci/run installs it.
package promtooltest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/ressim/ressim/internal/promtool"
)

// Require returns promtool's path; without promtool it skips the test, or
// fails it when the environment variable CI is set.
func Require(t testing.TB) string {
	t.Helper()
	p, err := promtool.Path()
	return found(t, p, err)
}

// RequireProgram is Require for another program of the prometheus
// package, such as the prometheus server.
func RequireProgram(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		err = fmt.Errorf("%s not found on PATH (install Debian's prometheus package)", name)
	}
	return found(t, p, err)
}

func found(t testing.TB, p string, err error) string {
	t.Helper()
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%v; CI is set, so .ci/run should have installed it", err)
	}
	t.Skipf("%v; skipping (set CI to make this a failure)", err)
	return ""
}
