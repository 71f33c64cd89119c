package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ressim/ressim/sim/importer"
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

// hostileText holds what a user-provided name could use to take over a
// terminal: ESC [ 2 J (clear), an OSC title ended by BEL, CR and
// backspace (overwrite), a lone 0x9b byte and U+009B (C1 CSI).
const hostileText = "\x1b[2J\x1b]0;title\a\rok\b\x9b\u009b"

// noControls fails if s has a control character other than newline, or a
// byte that is not UTF-8.
func noControls(t *testing.T, what, s string) {
	t.Helper()
	for i, r := range s {
		if r == utf8.RuneError || r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
			t.Fatalf("%s has %U at byte %d: %q", what, r, i, s)
		}
	}
}

// TestTerminalOutputIsEscaped: control characters in a file name (quoted
// back by the central error printing) and in a source key (quoted by an
// import warning) reach standard error escaped; in a warning, which is
// one line, a newline before a forged message is escaped too.
func TestTerminalOutputIsEscaped(t *testing.T) {
	dir := t.TempDir()
	code, _, e := ressim("validate", filepath.Join(dir, "x"+hostileText+".toml"))
	noControls(t, "validate's error", e)
	if code != exitInvalid || !strings.Contains(e, `x\x1b[2J\x1b]0;title\a\rok\b\x9b\u009b.toml: `) || strings.Count(e, "\n") != 1 {
		t.Errorf("validate: exit %d, stderr %q", code, e)
	}

	in := filepath.Join(dir, "app.yml")
	src := strconv.Quote(hostileText+"\nressim: forged") + ": 1\nresilience4j.retry:\n  instances:\n    a: {maxAttempts: 3}\n"
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, e := ressim("import", "resilience4j", in)
	noControls(t, "import's warnings", e)
	noControls(t, "import's experiment", out)
	if want := in + `:1:1: \x1b[2J\x1b]0;title\a\rok\b\u009b\u009b\nressim: forged: not a resilience4j section; ignored`; code != exitOK ||
		!strings.Contains(e, "warning: "+want+"\n") || strings.Contains(e, "\nressim: forged") {
		t.Errorf("import: exit %d, stderr %q, want the warning %q", code, e, want)
	}
}

// TestInternalErrorEscaped: a panic's value is printed on one line with
// its control characters escaped.
func TestInternalErrorEscaped(t *testing.T) {
	var b strings.Builder
	if code := internalError(&b, hostileText+" boom"); code != exitInternal {
		t.Fatalf("exit %d", code)
	}
	noControls(t, "the internal error", b.String())
	if !strings.Contains(b.String(), `internal error: \x1b[2J\x1b]0;title\a\rok\b\x9b\u009b boom`+"\n") {
		t.Errorf("stderr %q", b.String())
	}
}

// TestOutputFlagSpelling: every command that writes outputs names the
// flag -o/--out; import's old --output still works, hidden and
// deprecated.
func TestOutputFlagSpelling(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	for _, c := range root.Commands() {
		for _, name := range []string{"output", "out-dir", "outdir"} {
			if f := c.Flags().Lookup(name); f != nil && f.Deprecated == "" {
				t.Errorf("%s: --%s: the output flag is -o/--out", c.Name(), name)
			}
		}
		if f := c.Flags().ShorthandLookup("o"); f != nil && f.Name != "out" {
			t.Errorf("%s: -o is --%s, want --out", c.Name(), f.Name)
		}
	}
}

// TestImportHelpListsKinds: `ressim import --help` names every kind the
// importer reads, aws included.
func TestImportHelpListsKinds(t *testing.T) {
	code, out, e := ressim("import", "--help")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, e)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, k := range importer.Kinds() {
		if !strings.Contains(flat, k+" (") {
			t.Errorf("import --help does not list the kind %q:\n%s", k, out)
		}
	}
}

// TestImportAWS: the command imports an AWS shared config file; its
// warnings go to standard error, and a bad retry_mode exits 2 with its
// position.
func TestImportAWS(t *testing.T) {
	code, out, e := ressim("import", "aws", "../../sim/importer/testdata/aws-config")
	if code != exitOK || !strings.Contains(out, `retry_budget = { kind = "aws_standard"`) || !strings.Contains(e, "warning: ") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, e, out)
	}
	in := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(in, []byte("[profile a]\nretry_mode = adaptiv\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, e = ressim("import", "aws", in)
	if want := in + `:2:14: [profile a].retry_mode: unknown retry_mode "adaptiv" (did you mean "adaptive"?)`; code != exitInvalid || !strings.Contains(e, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, e, want)
	}
}
