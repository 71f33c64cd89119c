package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := WriteBytes(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(p, []byte("second")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "second" {
		t.Fatalf("content = %q, want %q", got, "second")
	}
	assertOnlyFile(t, dir, "out.txt")
}

func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := WriteBytes(p, []byte("keep me")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want wrapping %v", err, boom)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "keep me" {
		t.Fatalf("content = %q after a failed write, want the old content", got)
	}
	assertOnlyFile(t, dir, "out.txt")
}

func TestWriteMissingDir(t *testing.T) {
	err := WriteBytes(filepath.Join(t.TempDir(), "no", "such", "dir", "f"), nil)
	if err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != name {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only %s (temp files must not be left)", names, name)
	}
}
