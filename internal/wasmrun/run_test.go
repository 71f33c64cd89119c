package wasmrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/tooltest"
)

// TestRun builds testdata/prog for js/wasm and runs it in Chromium with
// testdata/root as its root and working directory: it reads the host's
// files there and nothing outside, its writes stay in the page (the
// host's file is unchanged after), folders are made, listed, renamed and
// removed, and its output and exit code come back. Without go or
// Chromium it is skipped, unless CI is set.
func TestRun(t *testing.T) {
	goCmd, chrome := tooltest.Need(t, "go"), tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	bin := filepath.Join(t.TempDir(), "prog.wasm")
	build := exec.Command(goCmd, "build", "-o", bin, "./testdata/prog")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root, err := filepath.Abs(filepath.Join("testdata", "root"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, Options{Chrome: chrome, Binary: bin, Dir: root, Root: root, Env: []string{"TMPDIR=/var/tmp"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `getwd: root
read host: inside the root
outside the root: true
write over host: changed in the page
list: 1 in.txt
mkdtemp: /tmp
create: 
close: 
rename: 
read renamed: line 0|line 1|line 2|
old name gone: true
remove nonempty: true
remove all: 
`
	if res.Stdout != want || res.Stderr != "to standard error\n" || res.Code != 3 || res.Error != "" {
		t.Errorf("got %+v\nwant stdout:\n%s", res, want)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "sub", "in.txt")); string(b) != "inside the root\n" {
		t.Errorf("the host's file changed: %q", b)
	}
}

// TestRunGoTest runs sim/dist's tests compiled to js/wasm in Chromium
// through the command, as go test's -exec: they pass, and a failing run
// would exit non-zero.
func TestRunGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sim/dist's tests for WebAssembly: not with -short")
	}
	goCmd, _ := tooltest.Need(t, "go"), tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	tool := filepath.Join(t.TempDir(), "wasmrun")
	if out, err := exec.Command(goCmd, "build", "-o", tool, "./cmd/wasmrun").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(goCmd, "test", "-count=1", "-exec="+tool, "./sim/dist")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok  \tgithub.com/ressim/ressim/sim/dist") {
		t.Fatalf("go test -exec wasmrun: %v\n%s", err, out)
	}
}

// TestRunNotAModule: a program the page cannot start comes back as code
// 2 with the browser's error, not as a hang or a Go error.
func TestRunNotAModule(t *testing.T) {
	chrome := tooltest.Need(t, "chromium", "chromium-browser", "google-chrome")
	dir := t.TempDir()
	bin := filepath.Join(dir, "bad.wasm")
	if err := os.WriteFile(bin, []byte("not WebAssembly"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Run(ctx, Options{Chrome: chrome, Binary: bin, Dir: dir, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != 2 || !strings.Contains(res.Error, "WebAssembly") {
		t.Errorf("got %+v, want code 2 and WebAssembly's error", res)
	}
}
