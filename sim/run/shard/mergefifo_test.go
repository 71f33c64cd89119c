//go:build linux

package shard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO given as a partial file is refused at once, with a message
// naming it, instead of waiting for ever for a writer (os.Open on a FIFO
// blocks in the kernel until one appears). A directory is refused too.
func TestMergeRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sweep-shard-00000-of-00001.partial.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	sub := filepath.Join(dir, "sub.partial.jsonl")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file"},
		{sub, "is a directory"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Merge(context.Background(), []string{tc.path}, MergeOptions{OutDir: filepath.Join(dir, "out")})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrPartial) || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("merge of %s: %v, want a refusal naming it (%q)", tc.path, err, tc.want)
			}
			if strings.Contains(err.Error(), "corrupt") {
				t.Errorf("merge of %s: %v: an unreadable file is not a corrupt one", tc.path, err)
			}
		case <-time.After(30 * time.Second):
			// Unblock the reader stuck in open, so that the test ends.
			if w, err := os.OpenFile(tc.path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("merge of %s still waiting after 30 s", tc.path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("a refused merge left an output folder: %v", err)
	}
}
