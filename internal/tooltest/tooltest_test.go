package tooltest

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that keeps what Need asked of it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Skipf(f string, args ...any)  { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Fatalf(f string, args ...any) { r.failed = fmt.Sprintf(f, args...) }

// TestNeed: a program on the PATH is found; a missing one skips the test,
// or fails it when CI is set.
func TestNeed(t *testing.T) {
	for _, c := range []struct {
		ci, name          string
		found, skip, fail bool
	}{
		{"", "sh", true, false, false},
		{"1", "sh", true, false, false},
		{"", "ressim-no-such-program", false, true, false},
		{"1", "ressim-no-such-program", false, false, true},
	} {
		t.Setenv("CI", c.ci)
		r := &recorder{TB: t}
		p := Need(r, "ressim-not-this-either", c.name)
		if (p != "") != c.found || (r.skipped != "") != c.skip || (r.failed != "") != c.fail {
			t.Errorf("CI=%q %s: path %q, skipped %q, failed %q", c.ci, c.name, p, r.skipped, r.failed)
		}
	}
}
