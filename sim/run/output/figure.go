package output

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/figures"
)

// Figure is a figure and its file name (a .png name): a Folder draws it
// to a file (PNG, and SVG too on request), a Memory to SVG bytes. Make
// one with Growing or Chart.
type Figure struct {
	File  string
	write func(path string, s *report.Scratch) error // s: memory shared by the figures of one set
	svg   func() ([]byte, error)
}

// Growing is a figure whose height doubles until its panels fit.
func Growing(file string, f report.Figure) Figure {
	return Figure{File: file,
		write: func(p string, s *report.Scratch) error { return figures.WriteGrowing(p, f, s) },
		svg:   func() ([]byte, error) { return SVGGrowing(f) }}
}

// Chart is a fixed-size chart: report.BarChart or report.Heatmap.
type Chart interface {
	WriteFile(path string) error
	RenderSVG(w io.Writer) error
}

// ChartFigure is a fixed-size chart's figure.
func ChartFigure(file string, c Chart) Figure {
	return Figure{File: file, write: func(p string, _ *report.Scratch) error { return c.WriteFile(p) }, svg: func() ([]byte, error) {
		var b bytes.Buffer
		err := c.RenderSVG(&b)
		return b.Bytes(), err
	}}
}

// SVGGrowing renders f as SVG, doubling its height while the panels do
// not fit, up to report.MaxSize.
func SVGGrowing(f report.Figure) ([]byte, error) {
	h := f.Height
	if h == 0 {
		h = report.DefaultHeight
	}
	for {
		f.Height = h
		var b bytes.Buffer
		err := report.RenderSVG(&b, f)
		if err == nil {
			return b.Bytes(), nil
		}
		if !strings.Contains(err.Error(), "too small") || h >= report.MaxSize {
			return nil, err
		}
		h = min(2*h, report.MaxSize)
	}
}

// DrawSafely runs draw, turning a panic in the plotting library into an
// error.
func DrawSafely(draw func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plotting failed: %v", r)
		}
	}()
	return draw()
}

// File is one data file and what fills it.
type File struct {
	Name string
	Fill func(io.Writer) error
}

// WriteFiles writes each data file into s, in order, returning the paths.
func WriteFiles(s Sink, files []File) ([]string, error) {
	var paths []string
	for _, f := range files {
		p, err := s.File(f.Name, f.Fill)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// DrawFigures draws each figure into s, returning the paths written and
// a warning per figure that could not be drawn.
func DrawFigures(s Sink, figs []Figure) (paths, warnings []string) {
	for _, f := range figs {
		p, w := s.Figure(f)
		paths, warnings = append(paths, p...), append(warnings, w...)
	}
	return paths, warnings
}

// DrawFiguresParallel is DrawFigures drawing a Folder's figures on every
// processor at once, each goroutine in its own scratch memory: a figure
// is drawn into its own files from data nobody writes while drawing, so
// its bytes do not depend on which goroutine draws it or when, and the
// paths and warnings come back in figs' order. A run's two or more
// figures were drawn one after another, most of a second of wall time
// on a two-core machine with the other core idle. Other sinks, and a
// single processor (WebAssembly), draw in order as DrawFigures does.
func DrawFiguresParallel(s Sink, figs []Figure) (paths, warnings []string) {
	f, ok := s.(*Folder)
	workers := min(runtime.GOMAXPROCS(0), len(figs))
	if !ok || workers < 2 {
		return DrawFigures(s, figs)
	}
	type drawn struct{ paths, warnings []string }
	done := make([]drawn, len(figs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		memo := &f.memo
		if w > 0 {
			memo = new(report.Scratch)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(figs) {
					return
				}
				done[i].paths, done[i].warnings = f.figure(figs[i], memo)
			}
		}()
	}
	wg.Wait()
	for _, d := range done {
		paths, warnings = append(paths, d.paths...), append(warnings, d.warnings...)
	}
	return paths, warnings
}
