package report

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// pngEncoder writes an opaque *image.RGBA as the bytes image/png's
// Encoder writes at BestSpeed: the signature, IHDR (8-bit truecolour),
// the zlib stream of the filtered rows in IDAT chunks of 32 KiB (a
// bufio.Writer of that size, as image/png's), and IEND. Each row's
// filter is image/png's choice (the least sum of absolute residuals, ties
// to Up, Paeth, None, Sub, Average in that order), found faster: eight
// bytes at a time where the residuals are zero (the white background a
// figure is mostly made of) and stopping once a sum reaches the best so
// far, which cannot change the choice because sums only grow. Other
// images go to image/png. Its zlib writer and rows are reused from one
// image to the next; it is not safe for concurrent use.
type pngEncoder struct {
	zw   *zlib.Writer
	bw   *bufio.Writer
	idat idatWriter
	cur  []byte              // the row's RGB bytes after its filter-type byte (None)
	prev []byte              // the previous row's (zeros above the first)
	rows [ftPaeth + 1][]byte // rows[f]: the row under filter f, f first (rows[ftNone] unused)
	tmp  [13]byte
}

// PNG filter types.
const (
	ftNone = iota
	ftSub
	ftUp
	ftAverage
	ftPaeth
)

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// encode writes img to w as PNG.
func (e *pngEncoder) encode(w io.Writer, img image.Image) error {
	m, ok := img.(*image.RGBA)
	b := img.Bounds()
	if !ok || !m.Opaque() || b.Dx() >= 1<<31 || b.Dy() >= 1<<31 {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
	}
	if _, err := io.WriteString(w, pngSignature); err != nil {
		return err
	}
	binary.BigEndian.PutUint32(e.tmp[0:4], uint32(b.Dx()))
	binary.BigEndian.PutUint32(e.tmp[4:8], uint32(b.Dy()))
	e.tmp[8], e.tmp[9], e.tmp[10], e.tmp[11], e.tmp[12] = 8, 2, 0, 0, 0 // truecolour, 8 bits
	if err := writeChunk(w, "IHDR", e.tmp[:13]); err != nil {
		return err
	}
	e.idat.w = w
	if e.bw == nil {
		e.bw = bufio.NewWriterSize(&e.idat, 1<<15)
	} else {
		e.bw.Reset(&e.idat)
	}
	if err := e.writeRows(m); err != nil {
		return err
	}
	if err := e.bw.Flush(); err != nil {
		return err
	}
	return writeChunk(w, "IEND", nil)
}

// writeRows compresses m's filtered rows into e.bw.
func (e *pngEncoder) writeRows(m *image.RGBA) error {
	if e.zw == nil {
		zw, err := zlib.NewWriterLevel(e.bw, zlib.BestSpeed)
		if err != nil {
			return err
		}
		e.zw = zw
	} else {
		e.zw.Reset(e.bw)
	}
	b := m.Bounds()
	n := 3 * b.Dx()
	e.cur, e.prev = grow(e.cur, 1+n), grow(e.prev, n)
	clear(e.prev)
	for f := range e.rows {
		e.rows[f] = grow(e.rows[f], 1+n)
		e.rows[f][0] = byte(f)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := e.cur[1:]
		pix := m.Pix[m.PixOffset(b.Min.X, y):]
		for i, j := 0, 0; i < n; i, j = i+3, j+4 {
			row[i], row[i+1], row[i+2] = pix[j], pix[j+1], pix[j+2]
		}
		if _, err := e.zw.Write(e.filter(row)); err != nil {
			return err
		}
		copy(e.prev, row)
	}
	return e.zw.Close()
}

// grow returns s resliced to n bytes, reallocated if too short.
func grow(s []byte, n int) []byte {
	if cap(s) < n {
		return make([]byte, n)
	}
	return s[:n]
}

// filter returns the row to write for cur (e.cur[1:]) under image/png's
// choice of filter, its filter type first.
func (e *pngEncoder) filter(cur []byte) []byte {
	prev, rows := e.prev, &e.rows
	best, f := sumUp(rows[ftUp][1:], cur, prev), ftUp
	if s := sumPaeth(rows[ftPaeth][1:], cur, prev, best); s < best {
		best, f = s, ftPaeth
	}
	if s := sumNone(cur, best); s < best {
		best, f = s, ftNone
	}
	if s := sumSub(rows[ftSub][1:], cur, best); s < best {
		best, f = s, ftSub
	}
	if s := sumAverage(rows[ftAverage][1:], cur, prev, best); s < best {
		f = ftAverage
	}
	if f == ftNone {
		return e.cur
	}
	return rows[f]
}

// bpp is the bytes per pixel of an 8-bit truecolour row.
const bpp = 3

// abs8 is the absolute value of d read as a signed byte.
func abs8(d uint8) int {
	if d < 128 {
		return int(d)
	}
	return 256 - int(d)
}

// word is the eight bytes of s from i, as one number (equal words, equal
// bytes).
func word(s []byte, i int) uint64 { return binary.LittleEndian.Uint64(s[i:]) }

// zero8 writes eight zeros into out from i.
func zero8(out []byte, i int) { binary.LittleEndian.PutUint64(out[i:], 0) }

// The sums below are each filter's sum of absolute residuals, the
// residuals written into out; all but sumUp may stop at a sum at least
// best, out then unfinished. Eight bytes whose residuals are all zero are
// found by comparing words, and written as a zero word.

// sumUp: cur[i]-prev[i], zero where the bytes equal those above.
func sumUp(out, cur, prev []byte) int {
	sum, i := 0, 0
	for ; i+8 <= len(cur); i += 8 {
		if word(cur, i) == word(prev, i) {
			zero8(out, i)
			continue
		}
		for j := i; j < i+8; j++ {
			out[j] = cur[j] - prev[j]
			sum += abs8(out[j])
		}
	}
	for ; i < len(cur); i++ {
		out[i] = cur[i] - prev[i]
		sum += abs8(out[i])
	}
	return sum
}

// paeth is the PNG Paeth predictor of a (left), b (above) and c (above
// left), as image/png computes it.
func paeth(a, b, c uint8) uint8 {
	pc := int(c)
	pa := int(b) - pc
	pb := int(a) - pc
	pc = absInt(pa + pb)
	pa = absInt(pa)
	pb = absInt(pb)
	if pa <= pb && pa <= pc {
		return a
	} else if pb <= pc {
		return b
	}
	return c
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sumPaeth: cur[i]-paeth(left, above, above left). Where a pixel and its
// left neighbour equal those above, the predictor is the pixel itself
// (left = above left gives the above, the pixel), so eight bytes equal to
// those above, and the three before them too, are zeros.
func sumPaeth(out, cur, prev []byte, best int) int {
	sum := 0
	for i := range min(bpp, len(cur)) {
		out[i] = cur[i] - prev[i]
		sum += abs8(out[i])
	}
	i := bpp
	for ; i+8 <= len(cur); i += 8 {
		if word(cur, i) == word(prev, i) && word(cur, i-bpp) == word(prev, i-bpp) {
			zero8(out, i)
			continue
		}
		for j := i; j < i+8; j++ {
			out[j] = cur[j] - paeth(cur[j-bpp], prev[j], prev[j-bpp])
			sum += abs8(out[j])
		}
		if sum >= best {
			return sum
		}
	}
	for ; i < len(cur); i++ {
		out[i] = cur[i] - paeth(cur[i-bpp], prev[i], prev[i-bpp])
		sum += abs8(out[i])
	}
	return sum
}

// sumNone: the bytes themselves (nothing to write).
func sumNone(cur []byte, best int) int {
	sum, i := 0, 0
	for ; i+8 <= len(cur); i += 8 {
		for _, d := range cur[i : i+8] {
			sum += abs8(d)
		}
		if sum >= best {
			return sum
		}
	}
	for ; i < len(cur); i++ {
		sum += abs8(cur[i])
	}
	return sum
}

// sumSub: cur[i]-cur[i-bpp], zero where the bytes equal the pixel's
// before them.
func sumSub(out, cur []byte, best int) int {
	sum := 0
	for i := range min(bpp, len(cur)) {
		out[i] = cur[i]
		sum += abs8(out[i])
	}
	i := bpp
	for ; i+8 <= len(cur); i += 8 {
		if word(cur, i) == word(cur, i-bpp) {
			zero8(out, i)
			continue
		}
		for j := i; j < i+8; j++ {
			out[j] = cur[j] - cur[j-bpp]
			sum += abs8(out[j])
		}
		if sum >= best {
			return sum
		}
	}
	for ; i < len(cur); i++ {
		out[i] = cur[i] - cur[i-bpp]
		sum += abs8(out[i])
	}
	return sum
}

// sumAverage: cur[i]-(cur[i-bpp]+prev[i])/2, zero where the bytes equal
// those above and the pixel's before them.
func sumAverage(out, cur, prev []byte, best int) int {
	sum := 0
	for i := range min(bpp, len(cur)) {
		out[i] = cur[i] - prev[i]/2
		sum += abs8(out[i])
	}
	i := bpp
	for ; i+8 <= len(cur); i += 8 {
		if w := word(cur, i); w == word(prev, i) && w == word(cur, i-bpp) {
			zero8(out, i)
			continue
		}
		for j := i; j < i+8; j++ {
			out[j] = cur[j] - uint8((int(cur[j-bpp])+int(prev[j]))/2)
			sum += abs8(out[j])
		}
		if sum >= best {
			return sum
		}
	}
	for ; i < len(cur); i++ {
		out[i] = cur[i] - uint8((int(cur[i-bpp])+int(prev[i]))/2)
		sum += abs8(out[i])
	}
	return sum
}

// idatWriter writes each Write as one IDAT chunk.
type idatWriter struct{ w io.Writer }

func (c *idatWriter) Write(b []byte) (int, error) {
	if err := writeChunk(c.w, "IDAT", b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// writeChunk writes a PNG chunk: b's length, name, b and their CRC.
func writeChunk(w io.Writer, name string, b []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(b)))
	copy(head[4:], name)
	crc := crc32.Update(crc32.ChecksumIEEE(head[4:8]), crc32.IEEETable, b)
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	var foot [4]byte
	binary.BigEndian.PutUint32(foot[:], crc)
	_, err := w.Write(foot[:])
	return err
}
