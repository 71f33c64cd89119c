package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCPUProfileFlag: --cpuprofile on any command writes a profile that
// pprof reads, and an unwritable path is a command-line error (exit 2)
// before anything runs.
func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	var stderr bytes.Buffer
	code := execute([]string{"run", "../../experiments/retry-amplification.toml", "--no-plots",
		"-o", filepath.Join(dir, "out"), "--cpuprofile", path}, io.Discard, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.Bytes())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A pprof profile is a gzipped protocol buffer whose string table
	// names the sample types ("samples", "count", "cpu", "nanoseconds").
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("the profile is not gzipped: %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("the profile does not decompress: %v", err)
	}
	if !bytes.Contains(raw, []byte("cpu")) || !bytes.Contains(raw, []byte("nanoseconds")) {
		t.Errorf("%d bytes without the CPU sample type", len(raw))
	}

	stderr.Reset()
	code = execute([]string{"version", "--cpuprofile", filepath.Join(dir, "missing", "cpu.prof")}, io.Discard, &stderr)
	if code != exitInvalid {
		t.Errorf("unwritable --cpuprofile: exit %d, want %d (%s)", code, exitInvalid, stderr.Bytes())
	}
}

// TestCPUProfileWriteFails: a profile that cannot be written (a full
// disk: /dev/full) is an error, not a silent exit 0 with the profile
// lost (issue 23).
func TestCPUProfileWriteFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	var stderr bytes.Buffer
	code := execute([]string{"version", "--cpuprofile", "/dev/full"}, io.Discard, &stderr)
	if code == exitOK || !bytes.Contains(stderr.Bytes(), []byte("the profile is lost")) {
		t.Fatalf("exit %d, stderr %q: want a failure saying the profile is lost", code, stderr.Bytes())
	}
}
