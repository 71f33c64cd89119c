package atomicfile

import (
	"bytes"
	"errors"
	"testing"
)

// countingWriter keeps what it is given and counts the writes.
type countingWriter struct {
	bytes.Buffer
	writes int
	fail   error
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.fail != nil {
		return 0, w.fail
	}
	return w.Buffer.Write(p)
}

// TestBuffer is a step table: what a fill writes reaches the file whole,
// in writes of at most MaxBuffer bytes, with a small buffer for a small
// file; a piece of MaxBuffer or more goes straight through after what is
// kept; the first write error sticks.
func TestBuffer(t *testing.T) {
	row := bytes.Repeat([]byte("0123456789"), 10)
	for _, c := range []struct {
		name       string
		pieces     [][]byte
		wantWrites int
		maxCap     int
	}{
		{"empty", nil, 0, 0},
		{"a small file", [][]byte{[]byte("a,b\n"), []byte("1,2\n")}, 1, minBuffer},
		{"1.5 MiB in rows", repeat(row, (MaxBuffer+MaxBuffer/2)/len(row)), 2, MaxBuffer},
		{"a row, then one piece past the bound", [][]byte{row, make([]byte, MaxBuffer+1), row}, 3, minBuffer},
		{"exactly the bound", [][]byte{make([]byte, MaxBuffer)}, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w countingWriter
			var b Buffer
			b.reset(&w)
			var want []byte
			for _, p := range c.pieces {
				if n, err := b.Write(p); n != len(p) || err != nil {
					t.Fatalf("Write: %d, %v", n, err)
				}
				want = append(want, p...)
			}
			if err := b.flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), want) {
				t.Errorf("the file has %d bytes, want %d", w.Len(), len(want))
			}
			if w.writes != c.wantWrites {
				t.Errorf("%d writes, want %d", w.writes, c.wantWrites)
			}
			if cap(b.b) > c.maxCap {
				t.Errorf("the buffer grew to %d bytes, want at most %d", cap(b.b), c.maxCap)
			}
		})
	}

	bad := errors.New("disk full")
	w := countingWriter{fail: bad}
	var b Buffer
	b.reset(&w)
	b.Write(make([]byte, MaxBuffer-1))
	if _, err := b.Write(row); !errors.Is(err, bad) {
		t.Fatalf("the write that fills the buffer: %v, want %v", err, bad)
	}
	if _, err := b.Write(row); !errors.Is(err, bad) || w.writes != 1 {
		t.Errorf("after an error: %v after %d writes, want %v after 1", err, w.writes, bad)
	}
}

func repeat(p []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = p
	}
	return out
}
