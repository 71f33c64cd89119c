package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServe: ressim serve --dir prints its URL, serves the site (main.wasm
// as application/wasm), refuses writes and a NUL byte in the path (400, not
// the 500 os.DirFS's error gave), and returns cleanly when its
// context (what SIGINT and SIGTERM cancel) is cancelled.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html><title>p</title>", "main.wasm": "\x00asm"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRoot(pw, io.Discard)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--dir", dir})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no URL in %q", line)
	}
	url := strings.Fields(line[i:])[0]
	res, err := http.Get(url + "main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "application/wasm" {
		t.Errorf("main.wasm: status %d, type %q", res.StatusCode, ct)
	}
	res, err = http.Post(url, "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", res.StatusCode)
	}
	res, err = http.Get(url + "main.wasm%00")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("GET main.wasm%%00: status %d, want 400", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v after cancel", err)
		}
	case <-time.After(10 * time.Second): // Shutdown waits at most 5 s
		t.Fatal("serve did not stop after cancel")
	}
}

// TestServeDirWithoutSite: --dir must hold a built site.
func TestServeDirWithoutSite(t *testing.T) {
	var stderr strings.Builder
	code := execute([]string{"serve", "--addr", "127.0.0.1:0", "--dir", t.TempDir()}, io.Discard, &stderr)
	if code != exitInvalid || !strings.Contains(stderr.String(), "not a built playground") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestServeBuildNotice: before a first WebAssembly build serve says it
// takes minutes, with the measured figure and how to build ahead; once
// main.wasm is there it says seconds.
func TestServeBuildNotice(t *testing.T) {
	dir := t.TempDir()
	first := buildNotice(dir)
	for _, want := range []string{dir, "first WebAssembly build takes a few minutes", firstWasmBuild + " measured", "go run ./playground/build -o dist/playground", "ressim serve --dir dist/playground"} {
		if !strings.Contains(first, want) {
			t.Errorf("first-build notice lacks %q: %q", want, first)
		}
	}
	if strings.Count(first, "\n") != 1 || !strings.HasSuffix(first, "\n") {
		t.Errorf("first-build notice is not one line: %q", first)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := buildNotice(dir)
	if strings.Contains(again, "minutes") || !strings.Contains(again, "seconds") {
		t.Errorf("rebuild notice: %q", again)
	}
}
