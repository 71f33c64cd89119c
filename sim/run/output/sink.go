package output

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

// Sink is where a command puts its outputs: the command decides what is
// written and in what order, the sink where it goes. Folder writes a
// folder, Memory keeps bytes; both get the same data-file bytes from the
// same code, and the commands are tested to give the same bytes to both
// (TestSinksSameRun, TestSinksSameCompare, TestSinksSameSweep).
//
// A sink serves one command once, on that command's goroutine: it is not
// safe for concurrent use, and it keeps the files in the order written.
// Its outputs are all-or-nothing: the command calls Open before any run,
// Commit once every file is written, and Abort (deferred) otherwise;
// Abort after Commit does nothing.
type Sink interface {
	// Open readies the sink before any run; defaultDir is the folder the
	// command writes by default (a Folder without one of its own).
	Open(defaultDir string) error
	// Commit publishes the outputs as one set.
	Commit() error
	// Abort drops whatever was written unless Commit published it.
	Abort()

	// OutDir is the output folder ("" in memory).
	OutDir() string
	// Scratch is a folder inside the staged set for spools, removed with
	// it ("" in memory: spool in memory).
	Scratch() string
	// File writes one data file, filled by fill, and returns its path.
	File(name string, fill func(io.Writer) error) (string, error)
	// Figure draws f, returning the paths written and, if it could not
	// be drawn, the warnings: a figure never fails the command.
	Figure(f Figure) (paths, warnings []string)
	// Interactive says the outputs are shown as they come (Memory): a run
	// then draws its overview first and tells its observer of each stage,
	// the bulky data files nobody reads in a page (a run's
	// timeseries.csv, events.csv and trace.json, a comparison's
	// timeseries.csv) are not written, and the figures are always drawn.
	Interactive() bool
}

// ErrOutput marks an output folder that cannot be created or written,
// found before any run.
var ErrOutput = errors.New("output folder unusable")

// Folder is the sink that writes a folder, staged (atomicfile.Dir) by
// Open and committed whole: a failed or stopped command leaves the
// previous set untouched. It draws the figures as PNG, and as SVG too
// (same name, .svg) with SVG set.
type Folder struct {
	// Dir is the output folder, created if missing; empty means the
	// command's default (out/<name>, out/<name>/compare, ...).
	Dir string
	SVG bool

	stage *atomicfile.Dir
	memo  report.Scratch    // memory reused by the figures drawn one after another
	buf   atomicfile.Buffer // the data files' write buffer, reused from one to the next
}

// NewFolder returns the sink writing dir ("" for the command's default),
// with the figures as SVG too if svg.
func NewFolder(dir string, svg bool) *Folder { return &Folder{Dir: dir, SVG: svg} }

// Open stages the folder (Dir, else defaultDir).
func (f *Folder) Open(defaultDir string) error {
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

// OutDir is Dir, the folder the outputs are committed to.
func (f *Folder) OutDir() string { return f.Dir }

// Scratch is the staging folder: what is left there is committed too,
// so a caller spools into a subfolder it removes.
func (f *Folder) Scratch() string { return f.stage.Path() }

// Interactive is false: a folder is read once the command is done.
func (f *Folder) Interactive() bool { return false }

// File writes name atomically into the staging folder and returns its
// path in Dir.
func (f *Folder) File(name string, fill func(io.Writer) error) (string, error) {
	if err := atomicfile.WriteWith(filepath.Join(f.stage.Path(), name), &f.buf, fill); err != nil {
		return "", err
	}
	return filepath.Join(f.Dir, name), nil
}

// Figure draws fig as PNG, and as SVG with f.SVG.
func (f *Folder) Figure(fig Figure) (paths, warnings []string) {
	return f.figure(fig, &f.memo)
}

// figure is Figure drawing in memo's memory (DrawFiguresParallel gives
// each of its goroutines its own).
func (f *Folder) figure(fig Figure, memo *report.Scratch) (paths, warnings []string) {
	for _, name := range FigureFiles(fig.File, f.SVG) {
		p := filepath.Join(f.stage.Path(), name)
		if err := DrawSafely(func() error { return fig.write(p, memo) }); err != nil {
			warnings = append(warnings, fmt.Sprintf("figure %s not drawn: %v", name, err))
			continue
		}
		paths = append(paths, filepath.Join(f.Dir, name))
	}
	return paths, warnings
}

// FigureFiles is the files a figure named png (a .png name) is drawn to:
// png, and with svg the same name ending in .svg.
func FigureFiles(png string, svg bool) []string {
	if !svg {
		return []string{png}
	}
	return []string{png, strings.TrimSuffix(png, ".png") + ".svg"}
}

// Memory is the sink that keeps the outputs in memory, for callers
// without a file system (the WebAssembly playground): the data files
// byte-identical to Folder's, the figures as SVG, in the order written.
// Open, Commit and Abort do nothing.
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

// Commit does nothing: the outputs are in m as written.
func (m *Memory) Commit() error { return nil }

// Abort does nothing.
func (m *Memory) Abort() {}

// Open does nothing.
func (m *Memory) Open(string) error { return nil }

// OutDir is "": there is no folder.
func (m *Memory) OutDir() string { return "" }

// Scratch is "": spool in memory.
func (m *Memory) Scratch() string { return "" }

// Interactive is true: the outputs are shown as they come.
func (m *Memory) Interactive() bool { return true }

// File keeps the bytes fill writes, under name.
func (m *Memory) File(name string, fill func(io.Writer) error) (string, error) {
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	m.Files = append(m.Files, MemoryFile{File: name, Data: b.Bytes()})
	return name, nil
}

// Figure keeps f drawn as SVG, under its name ending in .svg.
func (m *Memory) Figure(f Figure) (paths, warnings []string) {
	name := strings.TrimSuffix(f.File, ".png") + ".svg"
	var svg []byte
	if err := DrawSafely(func() (err error) { svg, err = f.svg(); return err }); err != nil {
		return nil, []string{fmt.Sprintf("figure %s not drawn: %v", name, err)}
	}
	m.Figures = append(m.Figures, MemoryFigure{File: name, SVG: svg})
	return []string{name}, nil
}
