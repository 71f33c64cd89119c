package wasmjump

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/tooltest"
)

// TestThreadedProgram builds testdata/prog for WebAssembly with the go
// command, threads it, and runs both modules in node: the output must be
// the same, and the module must have had jumps of every kind to rewrite.
// Without go or node it is skipped, unless CI is set.
func TestThreadedProgram(t *testing.T) {
	goCmd, node := tooltest.Need(t, "go"), tooltest.Need(t, "node", "nodejs")
	dir := t.TempDir()
	orig := filepath.Join(dir, "prog.wasm")
	in := goWasm(t, goCmd, ".", orig, "build", "./testdata/prog")
	out, st, err := Thread(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Forward == 0 || st.Folded == 0 || st.Backward == 0 || st.Loops == 0 || st.Forwarded == 0 {
		t.Errorf("stats %+v: the toolchain no longer writes the jumps Thread rewrites", st)
	}
	threaded := filepath.Join(dir, "threaded.wasm")
	if err := os.WriteFile(threaded, out, 0o644); err != nil {
		t.Fatal(err)
	}
	execJS := wasmExec(t, goCmd)
	want, got := runNode(t, node, execJS, orig), runNode(t, node, execJS, threaded)
	if !bytes.Equal(got, want) {
		t.Errorf("threaded output:\n%s\nwant:\n%s", got, want)
	}
	if !bytes.Contains(want, []byte("pipeline 332833500")) {
		t.Errorf("the program's output is not what it computes:\n%s", want)
	}
	t.Logf("%+v; %d bytes, threaded %d", st, len(in), len(out))
}

// TestThreadedPackageTests runs the tests of the packages with code of
// their own for WebAssembly (the engine's heap, the metrics' and the
// random draws' 128-bit arithmetic through sim/internal/wide) and of the
// model (sim/topology, whose request path is where the frame pass and
// the panics' paths rewrite most), compiled to WebAssembly and threaded,
// in node: real code with tight loops, where a wrong branch depth or a
// wrongly forwarded load would show. (The playground's tests run the
// whole model threaded against the CLI; every sim package's tests passed
// this way by hand, docs/performance.md, eighth pass.)
func TestThreadedPackageTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs four packages' tests in WebAssembly: not with -short")
	}
	goCmd, node := tooltest.Need(t, "go"), tooltest.Need(t, "node", "nodejs")
	execJS := wasmExec(t, goCmd)
	dir := t.TempDir()
	for _, pkg := range []string{"sim/engine", "sim/metrics", "sim/dist", "sim/topology"} {
		t.Run(pkg, func(t *testing.T) {
			bin := filepath.Join(dir, filepath.Base(pkg)+".test")
			in := goWasm(t, goCmd, filepath.Join("..", ".."), bin, "test", "-c", "./"+pkg)
			out, st, err := Thread(in)
			if err != nil {
				t.Fatal(err)
			}
			if st.Forward == 0 {
				t.Fatalf("nothing threaded: %+v", st)
			}
			if err := os.WriteFile(bin, out, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(node, execJS, bin, "-test.short")
			cmd.Dir = filepath.Join("..", "..", pkg)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s threaded: %v\n%s", pkg, err, b)
			}
		})
	}
}

// goWasm runs the go command (build or test -c, in args) for GOOS=js
// GOARCH=wasm in dir, writing the module to out, and returns the module.
func goWasm(t *testing.T, goCmd, dir, out string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(goCmd, append([]string{args[0], "-o", out}, args[1:]...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, b)
	}
	in, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// wasmExec returns the toolchain's wasm_exec_node.js (lib/wasm since Go
// 1.24, misc/wasm before).
func wasmExec(t *testing.T, goCmd string) string {
	t.Helper()
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec_node.js")
	if _, err := os.Stat(p); err != nil {
		p = filepath.Join(strings.TrimSpace(string(root)), "misc", "wasm", "wasm_exec_node.js")
	}
	return p
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
