package run

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Memory is a run's outputs held in memory, for callers without a file
// system (the WebAssembly playground): the same summary.json bytes and
// the same figures, as SVG, that Execute writes with --svg.
type Memory struct {
	Result *topology.Result
	// Summary is summary.json, byte-identical to Execute's.
	Summary []byte
	// Figures are the SVG figures, in Figures order.
	Figures []MemoryFigure
	// Warnings are the figures that could not be drawn.
	Warnings []string
}

// MemoryFigure is one drawn figure: its file name (".svg") and bytes.
type MemoryFigure struct {
	File string
	SVG  []byte
}

// ExecuteMemory runs exp like Execute (same seed rules, the same budget
// checks before and while running, Options.Progress and Options.Context)
// but keeps the outputs in memory, telling Options.Observe of each stage;
// OutDir, Plots, SVG and TraceEvery are ignored. Safe for concurrent use on distinct experiments.
func ExecuteMemory(exp *experiment.Experiment, opt Options) (*Memory, error) {
	cfg, err := model(exp, opt)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	if err := opt.Budget.Check([]runner.PlannedRun{{Model: cfg, Times: 1}}); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	out := &Memory{}
	if out.Result, err = simulate(cfg, opt); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	opt.observe("simulated", nil)
	// The first figure (the overview) is drawn before summary.json, which
	// nobody looks at first: the page shows it sooner.
	figs := figures.Default(out.Result)
	for i, f := range figs {
		if i == 1 {
			if err := out.summarize(opt); err != nil {
				return nil, fmt.Errorf("run %s: %w", exp.Name, err)
			}
		}
		name := strings.TrimSuffix(f.File, ".png") + ".svg"
		var svg []byte
		err := drawSafely(func() (err error) { svg, err = svgGrowing(f.Figure); return err })
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("figure %s not drawn: %v", name, err))
			continue
		}
		out.Figures = append(out.Figures, MemoryFigure{File: name, SVG: svg})
		opt.observe("figure", &out.Figures[len(out.Figures)-1])
	}
	if out.Summary == nil {
		if err := out.summarize(opt); err != nil {
			return nil, fmt.Errorf("run %s: %w", exp.Name, err)
		}
	}
	return out, nil
}

// summarize writes out.Summary and tells opt of the stage.
func (out *Memory) summarize(opt Options) error {
	b, err := SummaryJSON(out.Result)
	if err != nil {
		return err
	}
	out.Summary = b
	opt.observe("summary", nil)
	return nil
}

// observe calls o.Observe, if set.
func (o Options) observe(stage string, fig *MemoryFigure) {
	if o.Observe != nil {
		o.Observe(stage, fig)
	}
}

// svgGrowing renders f as SVG, doubling its height while the panels do
// not fit, as figures.WriteGrowing does for files.
func svgGrowing(f report.Figure) ([]byte, error) {
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
