package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportTooLarge: a legal input whose experiment would be over the
// 1 MiB limit exits 2 (an input problem) saying so, with the size, the
// limit and the advice to split, not as a bug in import; so does lint
// --import on it.
func TestImportTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("resilience4j.circuitbreaker:\n  configs:\n    default:\n      slidingWindowSize: 10\n" +
		"      minimumNumberOfCalls: 5\n      failureRateThreshold: 50\n      waitDurationInOpenState: 5s\n  instances:\n")
	for i := 0; i < 990; i++ {
		fmt.Fprintf(&b, "    s%d: {permittedNumberOfCallsInHalfOpenState: 3, slowCallDurationThreshold: 2s}\n", i)
	}
	dir := filepath.Join(t.TempDir(), strings.Repeat("long-folder-name-", 8))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "application.yml")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"import", "resilience4j", in}, {"lint", "--import", "resilience4j", in}} {
		code, out, e := ressim(args...)
		if code != exitInvalid || out != "" || strings.Contains(e, "bug") {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want exit %d", args[0], code, len(out), e, exitInvalid)
		}
		for _, want := range []string{"ressim: import: too large for one experiment file: the experiment generated from " + in + " is ",
			" bytes, over the 1048576-byte (1 MiB) limit of an experiment file", "split the input into several files"} {
			if !strings.Contains(e, want) {
				t.Errorf("%s: stderr %q lacks %q", args[0], e, want)
			}
		}
	}
}
