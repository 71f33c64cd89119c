//go:build unix

package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadDevZero: stat reports size 0 for a device, so the size check
// must come from the read itself; on main, validate /dev/zero read until
// memory ran out.
func TestLoadDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Load("/dev/zero")
	if !errors.Is(err, ErrInvalid) || err.Error() != "/dev/zero:1:1: file is larger than the 1048576-byte (1 MiB) limit" {
		t.Fatalf("err = %v", err)
	}
}

// TestLoadFIFONoWriter: opening a FIFO waits for a writer; on main,
// validate on a FIFO nobody writes to never returned.
func TestLoadFIFONoWriter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	_, err := Load(p)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), p+":1:1: read nothing") {
		t.Fatalf("err = %v", err)
	}
}

// TestLoadFIFOWithWriter: a FIFO whose writer has written and closed reads
// like the file. The test holds a reader open so that the written data
// stays in the pipe until Load opens it (no timing involved).
func TestLoadFIFOWithWriter(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	hold, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(good); err != nil { // under the 64 KiB pipe buffer
		t.Fatal(err)
	}
	w.Close()
	e, err := Load(p)
	if err != nil || e.Name != "mm10" {
		t.Fatalf("Load = %v, %v", e, err)
	}
}

func TestReadStdin(t *testing.T) {
	if e, err := Read(StdinName, strings.NewReader(good)); err != nil || e.File != "<stdin>" {
		t.Fatalf("Read = %v, %v", e, err)
	}
	_, err := Read(StdinName, strings.NewReader(strings.Repeat("#", MaxFileSize+1)))
	if err == nil || err.Error() != "<stdin>:1:1: file is larger than the 1048576-byte (1 MiB) limit" {
		t.Errorf("oversized: %v", err)
	}
	_, err = Read(StdinName, strings.NewReader(""))
	if err == nil || !strings.HasPrefix(err.Error(), "<stdin>:1:1: read nothing") {
		t.Errorf("empty: %v", err)
	}
}

func TestLoadDirectory(t *testing.T) {
	_, err := Load(t.TempDir())
	if err == nil || errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("err = %v", err)
	}
}
