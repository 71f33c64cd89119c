package metrics

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestIncDecInline checks that Count.Inc and Count.Dec fit the inliner's
// usual budget (80), natively and in WebAssembly. Profile-guided
// optimisation lifts the budget only at a hot call written in the
// function being compiled; at a call inside a helper that is itself
// inlined (instance.release into Model.complete), a Count change inlines
// by the usual budget or stays a call, which in WebAssembly was 3 % of
// mm10's time (docs/performance.md, issue 31's seventh pass).
func TestIncDecInline(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs the go command")
	}
	if testing.Short() {
		t.Skip("builds the package twice")
	}
	for _, target := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "build", "-gcflags=-m", "-o", os.DevNull, ".")
		cmd.Env = append(os.Environ(), target...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go build %v: %v\n%s", target, err, out)
		}
		for _, f := range []string{"(*Count).Inc", "(*Count).Dec"} {
			if !strings.Contains(string(out), "can inline "+f) {
				t.Errorf("%v: %s does not inline by the usual budget:\n%s", target, f, grepLines(string(out), f))
			}
		}
	}
}

// grepLines returns the lines of s that mention f.
func grepLines(s, f string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, f) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
