package run

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
)

// MemoryFile is one data file of a comparison or a sweep held in memory:
// its name (e.g. "compare.json") and bytes, identical to the file the
// CLI writes.
type MemoryFile struct {
	File string
	Data []byte
}

// CompareMemoryOutput is a comparison's outputs held in memory.
type CompareMemoryOutput struct {
	Comparison *Comparison
	Stats      []MetricStats
	Locked     []LockedIn
	// Expectations are the file's [[expect]] checks on the comparison.
	Expectations []ExpectResult
	// Files are compare.json, compare.csv and compare.md, byte-identical
	// to Compare's.
	Files []MemoryFile
	// Figures are Compare's figures, as SVG, in the same order.
	Figures []MemoryFigure
	// Warnings are the figures that could not be drawn.
	Warnings []string
}

// CompareMemory runs every variant of exp like Compare (the same seeds,
// replications, budget checks, Progress and stop rules) but keeps the
// outputs in memory, for callers without a file system (the WebAssembly
// playground). OutDir, Plots, SVG and Series are ignored: it writes no
// timeseries.csv and always draws the figures, as SVG. When ctx is
// cancelled or the budget stops a run, it returns the outputs of the
// whole replications that finished, and the reason.
func CompareMemory(ctx context.Context, exp *experiment.Experiment, opt CompareOptions) (*CompareMemoryOutput, error) {
	opt.spool = ""
	c, runErr := RunAll(ctx, exp, opt)
	if c == nil {
		return nil, runErr
	}
	out := &CompareMemoryOutput{Comparison: c}
	if c.Replications == 0 {
		return out, runErr
	}
	out.Stats, out.Locked = c.Stats()
	files, err := renderOutputs([]output{
		{CompareJSON, func(w io.Writer) error { return writeCompareJSON(w, c, out.Stats, out.Locked) }},
		{CompareCSV, func(w io.Writer) error { return writeCompareCSV(w, out.Stats, out.Locked) }},
		{CompareMarkdown, func(w io.Writer) error { return WriteCompareTable(w, c, out.Stats, out.Locked, true) }},
	})
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	out.Files = files
	out.Figures, out.Warnings = svgFigures(CompareFigures(c, out.Stats, out.Locked))
	out.Expectations = CheckExpectations(exp, c.ByVariant())
	return out, runErr
}

// SweepMemoryOutput is a sweep's outputs held in memory.
type SweepMemoryOutput struct {
	Result *SweepResult
	Stats  []CellStat
	// Files are sweep.csv, sweep.json and sweep.md, byte-identical to
	// RunSweep's.
	Files []MemoryFile
	// Figures are RunSweep's figures, as SVG.
	Figures  []MemoryFigure
	Warnings []string
}

// SweepMemory runs exp's [sweep] grid like RunSweep (same seeds, budget
// checks, Progress and stop rules) and keeps the outputs in memory;
// OutDir, Plots and SVG are ignored (the figures are drawn as SVG).
func SweepMemory(ctx context.Context, exp *experiment.Experiment, opt CompareOptions) (*SweepMemoryOutput, error) {
	res, cells, g, err := startSweep(ctx, exp, opt)
	if err != nil {
		return nil, err
	}
	out := &SweepMemoryOutput{Result: res}
	res.spool = newMemorySpool()
	runErr := res.runCells(ctx, cells, opt, g)
	if runErr != nil && !IsStop(runErr) {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, runErr)
	}
	if res.Replications == 0 {
		return out, runErr
	}
	if out.Stats, err = res.stats(); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	files, err := renderOutputs([]output{
		{SweepCSV, func(w io.Writer) error { return writeSweepCSV(w, res, out.Stats) }},
		{SweepJSON, func(w io.Writer) error { return writeSweepJSON(w, res, out.Stats) }},
		{SweepMarkdown, func(w io.Writer) error { return WriteSweepTable(w, res, out.Stats) }},
	})
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	out.Files = files
	out.Figures, out.Warnings = svgFigures(res.figures(out.Stats))
	return out, runErr
}

// renderOutputs fills each output into memory, in order.
func renderOutputs(outs []output) ([]MemoryFile, error) {
	files := make([]MemoryFile, 0, len(outs))
	for _, o := range outs {
		var b bytes.Buffer
		if err := o.fill(&b); err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		files = append(files, MemoryFile{File: o.name, Data: b.Bytes()})
	}
	return files, nil
}

// svgFigures draws each figure as SVG (file name ".svg"), with a warning
// per figure that could not be drawn.
func svgFigures(figs []compareFigure) ([]MemoryFigure, []string) {
	var out []MemoryFigure
	var warnings []string
	for _, f := range figs {
		name := strings.TrimSuffix(f.File, ".png") + ".svg"
		var svg []byte
		err := drawSafely(func() (err error) { svg, err = f.svg(); return err })
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("figure %s not drawn: %v", name, err))
			continue
		}
		out = append(out, MemoryFigure{File: name, SVG: svg})
	}
	return out, warnings
}
