package output

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/internal/atomicfile"
)

// TestFolderFilesShareABuffer: a Folder writes its data files through one
// atomicfile.Buffer, which keeps what a large file grew it to for the next
// file; the bytes come out whole, and a file whose fill fails leaves the
// buffer clean for the next.
func TestFolderFilesShareABuffer(t *testing.T) {
	f := NewFolder(filepath.Join(t.TempDir(), "out"), false)
	if err := f.Open(""); err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	big := bytes.Repeat([]byte("0123456789abcdef"), (atomicfile.MaxBuffer+atomicfile.MaxBuffer/2)/16)
	put := func(b []byte) func(io.Writer) error {
		return func(w io.Writer) error { _, err := w.Write(b); return err }
	}
	if _, err := f.File("big.csv", func(w io.Writer) error {
		for i := 0; i < len(big); i += 100 { // in rows, as the CSV writers write
			if _, err := w.Write(big[i:min(i+100, len(big))]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("no")
	if _, err := f.File("bad.csv", func(w io.Writer) error { w.Write([]byte("half a row")); return bad }); !errors.Is(err, bad) {
		t.Fatalf("a failing fill: %v", err)
	}
	if _, err := f.File("small.json", put([]byte(`{"x":1}`))); err != nil {
		t.Fatal(err)
	}
	if cap(f.buf.Bytes()) < atomicfile.MaxBuffer {
		t.Errorf("the buffer holds %d bytes after the large file: not kept for the next", cap(f.buf.Bytes()))
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"big.csv": big, "small.json": []byte(`{"x":1}`)} {
		got, err := os.ReadFile(filepath.Join(f.Dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	if _, err := os.Stat(filepath.Join(f.Dir, "bad.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failed file is in the set: %v", err)
	}
}
