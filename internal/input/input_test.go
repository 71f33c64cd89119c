package input

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		limit      int64
		want       string // data, or the error's text
		is         error
	}{
		{"within", small, 3, "abc", nil},
		{"over", small, 2, "is larger than the 2-byte limit", ErrTooLarge},
		{"empty regular", empty, 10, "", nil},
		{"directory", dir, 10, "is a directory", nil},
		{"missing", filepath.Join(dir, "nope"), 10, "no such file", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadFile(tc.path, tc.limit)
			if err == nil {
				if string(data) != tc.want {
					t.Fatalf("got %q, want %q", data, tc.want)
				}
				return
			}
			if !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("error %v, want %q (%v)", err, tc.want, tc.is)
			}
		})
	}
}

// TestEndlessDevice reads /dev/zero: the read stops one byte past the
// limit instead of filling memory.
func TestEndlessDevice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /dev/zero")
	}
	_, err := ReadFile("/dev/zero", 1<<20)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1 MiB limit") {
		t.Fatalf("got %v, want the 1 MiB limit", err)
	}
}

// TestFIFOWithoutWriter opens a FIFO nobody writes to: the read returns
// at once as empty instead of waiting for a writer for ever.
func TestFIFOWithoutWriter(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs mkfifo")
	}
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := ReadFile(p, 10); !errors.Is(err, ErrEmpty) {
		t.Fatalf("got %v, want ErrEmpty", err)
	}
	if _, err := OpenRegular(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("OpenRegular(fifo) = %v, want a refusal", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 64 << 10: "64 KiB", 4 << 30: "4 GiB", 300: "300-byte", 1<<20 + 1: "1048577-byte"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
