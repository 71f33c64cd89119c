//go:build !js

package playground

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ressim/ressim/internal/headless"
	"github.com/ressim/ressim/internal/wasmjump"
)

// builtSite builds the site once per test binary into a temporary folder
// (or uses RESSIM_PLAYGROUND_SITE, a folder built with
// go run ./playground/build, to save the minute main.wasm takes).
var builtSite = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv("RESSIM_PLAYGROUND_SITE"); dir != "" {
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "ressim-playground-")
	if err != nil {
		return "", err
	}
	return dir, Build(context.Background(), dir)
})

func site(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds main.wasm: not with -short")
	}
	dir, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// artifacts is where a test writes its screenshots and measurements:
// $RESSIM_ARTIFACTS/<test> if set, else a temporary folder.
func artifacts(t *testing.T) string {
	t.Helper()
	base := os.Getenv("RESSIM_ARTIFACTS")
	if base == "" {
		return t.TempDir()
	}
	dir := filepath.Join(base, t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBuiltCatalogue: the built site carries catalogue.json, List's
// answer, which the page shows before main.wasm has started.
func TestBuiltCatalogue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(site(t), CatalogueFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != JSON(List()) {
		t.Errorf("%s differs from List's answer: rebuild the site", CatalogueFile)
	}
}

// TestBuiltWasmThreaded: Build threads main.wasm's jumps (wasmjump): a
// second pass finds no function whose entry is as the go command writes
// it (Thread gives every entry loop a branch ahead of its br_table), and
// changes nothing. (The go command leaves a threaded main.wasm in place:
// it keeps its build ID, so go build finds it up to date, and Build
// threads it again, which changes nothing.)
func TestBuiltWasmThreaded(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(site(t), WasmFile))
	if err != nil {
		t.Fatal(err)
	}
	again, st, err := wasmjump.Thread(b)
	if err != nil {
		t.Fatal(err)
	}
	if st.Functions == 0 || st.Loops != 0 || !bytes.Equal(again, b) {
		t.Errorf("main.wasm is not threaded: a second pass found %+v", st)
	}
}

// startBrowser starts headless Chromium (the binary chrome) with a
// width x height window and returns a context for chromedp that ends
// after timeout; the browser is closed when the test ends.
//
// The browser is started here, by headless.Start, which tries a start
// that fails again on a fresh allocator: on a context whose browser failed
// to start, chromedp would start another at the next action (a test's
// screenshot of its failure), and the two then close the same channel, a
// panic that ends the whole test binary and hides the error.
func startBrowser(t *testing.T, chrome string, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	bctx, stop, err := headless.Start(ctx, headless.Options{Chrome: chrome,
		Extra: []chromedp.ExecAllocatorOption{chromedp.WindowSize(width, height)}, Logf: t.Logf})
	if err != nil {
		cancelTimeout()
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); cancelTimeout() })
	return bctx
}

// TestThreadJumpsKeepsWhatItCannotRead: a main.wasm the pass cannot read
// is left as the go command wrote it, and the build goes on.
func TestThreadJumpsKeepsWhatItCannotRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), WasmFile)
	want := []byte("\x00asm\x01\x00\x00\x00\x0a\x09") // a code section cut short
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := threadJumps(path); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("main.wasm changed to %x", got)
	}
}
