package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/sim/report"
)

// Sink is where a command (Execute, Compare, RunSweep, Batch) puts its
// outputs: the command decides what is written and in what order, the
// sink where it goes. Folder writes a folder, Memory keeps bytes; they
// are the only two (the methods that write are unexported), and both get
// the same data-file bytes from the same code.
//
// A sink serves one command once, on that command's goroutine: it is not
// safe for concurrent use, and it keeps the files in the order written.
// Its outputs are all-or-nothing: the command calls Commit once every
// file is written, and Abort (deferred) otherwise; Abort after Commit
// does nothing.
type Sink interface {
	// Commit publishes the outputs as one set.
	Commit() error
	// Abort drops whatever was written unless Commit published it.
	Abort()

	// open readies the sink before any run; defaultDir is the folder the
	// command writes by default (a Folder without one of its own).
	open(defaultDir string) error
	// dir is the output folder ("" in memory); scratch a folder inside the
	// staged set for the spools ("" in memory: spool in memory).
	dir() string
	scratch() string
	// file writes one data file, filled by fill, and returns its path.
	file(name string, fill func(io.Writer) error) (string, error)
	// figure draws f, returning the paths written and, if it could not
	// be drawn, the warnings: a figure never fails the command.
	figure(f compareFigure) (paths, warnings []string)
	// interactive says the outputs are shown as they come (Memory): a run
	// then draws its overview first and tells Options.Observe of each
	// stage, the bulky data files nobody reads in a page (a run's
	// timeseries.csv, events.csv and trace.json, a comparison's
	// timeseries.csv) are not written, and the figures are always drawn.
	interactive() bool
}

// ErrOutput marks an output folder that cannot be created or written,
// found before any run.
var ErrOutput = errors.New("output folder unusable")

// Folder is the sink that writes a folder, staged (atomicfile.Dir) before
// any run and committed whole: a failed or stopped command leaves the
// previous set untouched. It draws the figures as PNG, and as SVG too
// (same name, .svg) with SVG set.
type Folder struct {
	// Dir is the output folder, created if missing; empty means the
	// command's default (out/<name>, out/<name>/compare, ...).
	Dir string
	SVG bool

	stage *atomicfile.Dir
	memo  report.Scratch // the figures are drawn one after another
}

// NewFolder returns the sink writing dir ("" for the command's default),
// with the figures as SVG too if svg.
func NewFolder(dir string, svg bool) *Folder { return &Folder{Dir: dir, SVG: svg} }

func (f *Folder) open(defaultDir string) error {
	if f.Dir == "" {
		f.Dir = defaultDir
	}
	d, err := atomicfile.Stage(f.Dir)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOutput, err)
	}
	f.stage = d
	return nil
}

// Commit swaps the staged folder into place.
func (f *Folder) Commit() error { return f.stage.Commit() }

// Abort removes the staged folder unless committed.
func (f *Folder) Abort() {
	if f.stage != nil {
		f.stage.Abort()
	}
}

func (f *Folder) dir() string       { return f.Dir }
func (f *Folder) scratch() string   { return f.stage.Path() }
func (f *Folder) interactive() bool { return false }

func (f *Folder) file(name string, fill func(io.Writer) error) (string, error) {
	if err := atomicfile.Write(filepath.Join(f.stage.Path(), name), fill); err != nil {
		return "", err
	}
	return filepath.Join(f.Dir, name), nil
}

func (f *Folder) figure(fig compareFigure) (paths, warnings []string) {
	for _, name := range figureFiles(fig.File, f.SVG) {
		p := filepath.Join(f.stage.Path(), name)
		if err := drawSafely(func() error { return fig.write(p, &f.memo) }); err != nil {
			warnings = append(warnings, fmt.Sprintf("figure %s not drawn: %v", name, err))
			continue
		}
		paths = append(paths, filepath.Join(f.Dir, name))
	}
	return paths, warnings
}

// Memory is the sink that keeps the outputs in memory, for callers
// without a file system (the WebAssembly playground): the data files
// byte-identical to Folder's, the figures as SVG, in the order written.
// Commit and Abort do nothing.
type Memory struct {
	Files   []MemoryFile
	Figures []MemoryFigure
}

// MemoryFile is one data file held in memory: its name (e.g.
// "compare.json") and bytes, identical to the file Folder writes.
type MemoryFile struct {
	File string
	Data []byte
}

// MemoryFigure is one drawn figure: its file name (".svg") and bytes.
type MemoryFigure struct {
	File string
	SVG  []byte
}

// Data is the bytes of the data file name, nil if not written.
func (m *Memory) Data(name string) []byte {
	for _, f := range m.Files {
		if f.File == name {
			return f.Data
		}
	}
	return nil
}

func (m *Memory) Commit() error       { return nil }
func (m *Memory) Abort()              {}
func (m *Memory) open(string) error   { return nil }
func (m *Memory) dir() string         { return "" }
func (m *Memory) scratch() string     { return "" }
func (m *Memory) interactive() bool   { return true }
func (m *Memory) last() *MemoryFigure { return &m.Figures[len(m.Figures)-1] }

func (m *Memory) file(name string, fill func(io.Writer) error) (string, error) {
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	m.Files = append(m.Files, MemoryFile{File: name, Data: b.Bytes()})
	return name, nil
}

func (m *Memory) figure(f compareFigure) (paths, warnings []string) {
	name := strings.TrimSuffix(f.File, ".png") + ".svg"
	var svg []byte
	if err := drawSafely(func() (err error) { svg, err = f.svg(); return err }); err != nil {
		return nil, []string{fmt.Sprintf("figure %s not drawn: %v", name, err)}
	}
	m.Figures = append(m.Figures, MemoryFigure{File: name, SVG: svg})
	return []string{name}, nil
}

// writeFiles writes each data file into s, in order, returning the paths.
func writeFiles(s Sink, files []output) ([]string, error) {
	var paths []string
	for _, f := range files {
		p, err := s.file(f.name, f.fill)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// drawFigures draws each figure into s, returning the paths written and
// a warning per figure that could not be drawn.
func drawFigures(s Sink, figs []compareFigure) (paths, warnings []string) {
	for _, f := range figs {
		p, w := s.figure(f)
		paths, warnings = append(paths, p...), append(warnings, w...)
	}
	return paths, warnings
}
