package atomicfile

import "io"

// MaxBuffer is the most a Buffer holds before it writes to the file: 1
// MiB, so that mm10's 1.2 MB timeseries.csv goes out in two writes. In
// WebAssembly under node each write is a round trip through JavaScript
// and libuv's thread pool (docs/performance.md, tenth pass).
const MaxBuffer = 1 << 20

// Buffer collects what a file's fill writes and hands it to the file in
// writes of at most MaxBuffer bytes. It starts at 64 KiB and doubles as a
// file needs it, so a small file costs a small buffer: a fixed 1 MiB one
// cost every run its allocation (2-3 ms of fresh pages for runs of 5-10
// ms). Keep one and pass it to WriteWith for several files to reuse what
// it grew to. The zero value is ready to use; a Buffer is not safe for
// concurrent use.
type Buffer struct {
	b   []byte
	w   io.Writer
	err error
}

// reset points b at w, empty.
func (b *Buffer) reset(w io.Writer) { b.b, b.w, b.err = b.b[:0], w, nil }

// Write keeps p, first writing out what is kept if p would take it past
// MaxBuffer; p of MaxBuffer or more goes straight to the file.
func (b *Buffer) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(b.b)+len(p) > MaxBuffer || len(p) >= MaxBuffer {
		if err := b.flush(); err != nil {
			return 0, err
		}
	}
	if len(p) >= MaxBuffer {
		n, err := b.w.Write(p)
		b.err = err
		return n, err
	}
	if need := len(b.b) + len(p); need > cap(b.b) {
		b.grow(need)
	}
	b.b = append(b.b, p...)
	return len(p), nil
}

// minBuffer is a Buffer's first size, the 64 KiB a bufio.Writer had here.
const minBuffer = 64 << 10

// grow doubles b's memory (from minBuffer, up to MaxBuffer) until need
// fits: append's own growth, a quarter at a time past 256 KiB, allocated
// 4.4 MB to buffer mm10's 1.2 MB time series.
func (b *Buffer) grow(need int) {
	c := max(cap(b.b), minBuffer/2)
	for c < need {
		c *= 2
	}
	nb := make([]byte, len(b.b), min(c, MaxBuffer))
	copy(nb, b.b)
	b.b = nb
}

// flush writes out what is kept.
func (b *Buffer) flush() error {
	if b.err == nil && len(b.b) > 0 {
		_, b.err = b.w.Write(b.b)
		b.b = b.b[:0]
	}
	return b.err
}

// Bytes is the buffer's memory, empty between files; its capacity is
// what the files written through it grew it to.
func (b *Buffer) Bytes() []byte { return b.b[:0] }
