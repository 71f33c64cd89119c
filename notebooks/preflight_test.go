package notebooks

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPreflight runs scripts/preflight.sh as a workshop laptop would: it
// must pass on a machine that builds ressim and say so.
func TestPreflight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs ressim; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	out, err := exec.Command("bash", "../scripts/preflight.sh").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "this laptop is ready") {
		t.Fatalf("preflight: %v\n%s", err, out)
	}
	for _, want := range []string{"ok    Go go1.", "ok    go build", "ok    one short run", "ok    plotting wrote overview.png"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("preflight output lacks %q:\n%s", want, out)
		}
	}
}
