package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestScratchSameBytes: figures drawn one after another into a Scratch,
// larger then smaller then larger again (so that reused memory holds the
// previous figure's pixels, and the PNG encoder's reused buffers its rows),
// are byte for byte those of WriteFile.
func TestScratchSameBytes(t *testing.T) {
	dir := t.TempDir()
	var s Scratch
	for i, f := range []Figure{
		sampleFigure(200, 1200, 900),
		sampleFigure(50, 640, 480),
		benchFigure(),
		sampleFigure(300, 1600, 1200),
	} {
		want := filepath.Join(dir, "want.png")
		got := filepath.Join(dir, "got.png")
		if err := WriteFile(want, f); err != nil {
			t.Fatal(err)
		}
		if err := s.WriteFile(got, f); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(want)
		b, _ := os.ReadFile(got)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("figure %d: %d bytes with a Scratch, %d without; they differ", i, len(b), len(a))
		}
	}
}

// TestNewPixels: pixel memory is n bytes, zero, with no room past them
// (huge-page-aligned memory is cut to n).
func TestNewPixels(t *testing.T) {
	for _, n := range []int{4, 4 * 640 * 480, 4 * 1200 * 900, 4 * 1600 * 1200} {
		b := newPixels(n)
		if len(b) != n || cap(b) != n {
			t.Errorf("newPixels(%d): len %d cap %d", n, len(b), cap(b))
		}
		if !bytes.Equal(b, make([]byte, n)) {
			t.Errorf("newPixels(%d) not zero", n)
		}
	}
}
