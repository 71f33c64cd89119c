package wasmjump

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestThreadedProgram builds testdata/prog for WebAssembly with the go
// command, threads it, and runs both modules in node: the output must be
// the same, and the module must have had jumps of every kind to rewrite.
// Without go or node it is skipped, unless CI is set.
func TestThreadedProgram(t *testing.T) {
	goCmd, node := need(t, "go"), need(t, "node", "nodejs")
	dir := t.TempDir()
	orig := filepath.Join(dir, "prog.wasm")
	build := exec.Command(goCmd, "build", "-o", orig, "./testdata/prog")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	in, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := Thread(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Forward == 0 || st.Folded == 0 || st.Backward == 0 || st.Loops == 0 {
		t.Errorf("stats %+v: the toolchain no longer writes the jumps Thread rewrites", st)
	}
	threaded := filepath.Join(dir, "threaded.wasm")
	if err := os.WriteFile(threaded, out, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	execJS := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec_node.js")
	if _, err := os.Stat(execJS); err != nil {
		execJS = filepath.Join(strings.TrimSpace(string(root)), "misc", "wasm", "wasm_exec_node.js")
	}
	want, got := runNode(t, node, execJS, orig), runNode(t, node, execJS, threaded)
	if !bytes.Equal(got, want) {
		t.Errorf("threaded output:\n%s\nwant:\n%s", got, want)
	}
	if !bytes.Contains(want, []byte("pipeline 332833500")) {
		t.Errorf("the program's output is not what it computes:\n%s", want)
	}
	t.Logf("%+v; %d bytes, threaded %d", st, len(in), len(out))
}

func runNode(t *testing.T, node, execJS, module string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(node, execJS, module)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", filepath.Base(module), err, stderr.Bytes())
	}
	return out
}

// need returns the path of the first of names installed; the test is
// skipped without any, or fails when CI is set.
func need(t *testing.T, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("none of %v installed, and CI is set", names)
	}
	t.Skipf("none of %v installed", names)
	return ""
}
