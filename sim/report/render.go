package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"

	"git.sr.ht/~sbinet/gg"
	"github.com/ressim/ressim/internal/atomicfile"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// drawer is anything this package can render: Figure, BarChart, Heatmap.
type drawer interface {
	// dims returns the requested size in pixels, defaults applied.
	dims() (w, h int, err error)
	// draw validates nothing; it lays out and draws on dc.
	draw(dc draw.Canvas, wpx, hpx int) error
	name() string
}

func (f *Figure) dims() (int, int, error) { return size(f.Width, f.Height) }
func (f *Figure) name() string            { return f.Title }
func (f *Figure) draw(dc draw.Canvas, w, h int) error {
	_, err := drawFigure(dc, f, w, h)
	return err
}

// RenderPNG draws f as a PNG image of f.Width x f.Height pixels (default
// 1200 x 900) and writes it to w. The same Figure always gives the same
// bytes (same Go and module versions, same architecture).
func RenderPNG(w io.Writer, f Figure) error { return renderPNG(w, &f, nil) }

// RenderSVG draws f as an SVG document whose size is f.Width x f.Height
// pixels at 96 dpi, and writes it to w. Text names the font Liberation
// Sans, then Arial and Helvetica (same metrics), then sans-serif; no font
// is embedded. The output is deterministic.
func RenderSVG(w io.Writer, f Figure) error { return renderSVG(w, &f, nil) }

// WriteFile renders f to path, as PNG or SVG according to the extension
// (.png or .svg, any case). The file is replaced atomically: a reader sees
// the old file or the new one, never a part.
func WriteFile(path string, f Figure) error { return writeFile(path, &f, nil) }

// Scratch is pixel memory reused by PNG figures drawn one after another:
// a figure of 1600 x 1200 pixels needs 7.7 MB, and a fresh allocation per
// figure costs its page faults and the garbage collector's work again
// (about 25 ms of a four-figure run, docs/performance.md). Every pixel is
// painted before the image is encoded, so the bytes are those of
// WriteFile. The zero Scratch is ready to use; a Scratch is not safe for
// concurrent use (one per goroutine drawing figures). It also keeps the
// PNG encoder's buffers and compressor for the next figure.
type Scratch struct {
	pix    []uint8
	png    pngEncoder
	glyphs glyphCache
}

// WriteFile is the package's WriteFile, drawing into s's memory.
func (s *Scratch) WriteFile(path string, f Figure) error { return writeFile(path, &f, s) }

// rgba returns an image of w x h pixels on s's memory (grown if needed),
// or a new one if s is nil. Its pixels are not cleared.
func (s *Scratch) rgba(w, h int) *image.RGBA {
	r := image.Rect(0, 0, w, h)
	if s == nil {
		return image.NewRGBA(r)
	}
	n := 4 * w * h
	if cap(s.pix) < n {
		s.pix = newPixels(n)
	}
	return &image.RGBA{Pix: s.pix[:n], Stride: 4 * w, Rect: r}
}

func validate(d drawer) error {
	if v, ok := d.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// errInternal marks a panic inside the drawing code, turned into an error
// so that a bad figure cannot crash the caller; it is a bug to report.
var errInternal = errors.New("internal error")

// safeDraw runs d.draw, converting a panic to an error wrapping errInternal.
func safeDraw(d drawer, dc draw.Canvas, wpx, hpx int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errInternal, r)
		}
	}()
	return d.draw(dc, wpx, hpx)
}

func renderImage(d drawer, s *Scratch) (image.Image, error) {
	if err := validate(d); err != nil {
		return nil, err
	}
	wpx, hpx, err := d.dims()
	if err != nil {
		return nil, err
	}
	// Hand gg a context on our own image: vgimg.UseWH would make gg copy
	// the whole image once more (about 10 % of the render time).
	// vgimg.NewWith paints the whole image with the background (draw.Src),
	// so memory reused from a Scratch needs no clearing.
	img := s.rgba(wpx, hpx)
	ctx := gg.NewContextForRGBA(img)
	ctx.SetLineCapButt()
	ctx.InvertY()
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(dpi))
	glyphs := new(glyphCache)
	if s != nil {
		glyphs = &s.glyphs
	}
	if err := safeDraw(d, draw.New(newRasterCanvas(c, img, glyphs)), wpx, hpx); err != nil {
		return nil, err
	}
	return c.Image(), nil
}

func renderPNG(w io.Writer, d drawer, s *Scratch) error {
	img, err := renderImage(d, s)
	if err != nil {
		return fmt.Errorf("report: render png %q: %w", d.name(), err)
	}
	// BestSpeed: about 10 ms less per figure than the default
	// compression, for a file about twice as large. pngEncoder writes
	// image/png's bytes in less time.
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := new(pngEncoder)
	if s != nil {
		enc = &s.png
	}
	if err := enc.encode(bw, img); err != nil {
		return fmt.Errorf("report: render png %q: %w", d.name(), err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: render png %q: %w", d.name(), err)
	}
	return nil
}

func renderSVG(w io.Writer, d drawer, _ *Scratch) error {
	err := func() error {
		if err := validate(d); err != nil {
			return err
		}
		wpx, hpx, err := d.dims()
		if err != nil {
			return err
		}
		c := vgsvg.NewWith(vgsvg.UseWH(px(wpx), px(hpx)))
		if err := safeDraw(d, draw.New(c), wpx, hpx); err != nil {
			return err
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return err
		}
		// Name metric-compatible fallbacks (Arial has the same advance
		// widths as Liberation Sans), so the layout holds in viewers
		// that lack Liberation.
		out := bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"), []byte(svgFonts))
		_, err = w.Write(out)
		return err
	}()
	if err != nil {
		return fmt.Errorf("report: render svg %q: %w", d.name(), err)
	}
	return nil
}

const svgFonts = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"

func writeFile(path string, d drawer, s *Scratch) error {
	var render func(io.Writer, drawer, *Scratch) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		render = renderPNG
	case ".svg":
		render = renderSVG
	default:
		return fmt.Errorf("report: write %s: unknown extension (want .png or .svg)", path)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return render(w, d, s) })
}
