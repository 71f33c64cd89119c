package run

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Options control one execution.
type Options struct {
	// OutDir is the output directory, created if missing. Empty means
	// DefaultOutDir(name).
	OutDir string
	// Seed, if non-nil, overrides the experiment's seed.
	Seed *uint64
	// Plots draws the PNG figures; without it only data files are written.
	Plots bool
	// TraceEvery, if > 0, traces one user request in TraceEvery (at most
	// TraceMax, 0 meaning 200) into trace.json.
	TraceEvery, TraceMax int
	// SVG also writes every figure as SVG (same name, .svg).
	SVG bool
	// HistogramSeries records the per-interval latency histograms in
	// Output.Result.Histograms (topology.Model.RecordHistogramSeries), for
	// the OpenMetrics export; off, they are nil.
	HistogramSeries bool
	// Progress, if not nil, is called as simulated time advances, with the
	// time reached and the end.
	Progress func(now, end time.Duration)
	// Budget bounds the run (runner.DefaultBudget is what ressim uses); the zero
	// Budget is unbounded.
	Budget runner.Budget
	// Context, if not nil, stops the run when cancelled (the run then
	// fails and writes nothing).
	Context context.Context
	// Replica, if not nil, runs that replication of a variant (or of a
	// sweep cell) exactly as compare or sweep ran it, Seed being the
	// comparison's seed; the default OutDir is then DefaultReplicaDir.
	Replica *Replica
	// Observe, if not nil, hears ExecuteMemory's stages as each ends:
	// "simulated", "figure" with the overview, "summary", then "figure"
	// once per other figure, with the figure (nil for the others); and,
	// with LiveFigures, "live" with a live overview while simulating. The playground uses it to show the
	// first figure while the others are drawn, and to time the stages.
	// Called on ExecuteMemory's goroutine; Execute ignores it.
	Observe func(stage string, fig *MemoryFigure)
	// LiveFigures, with Observe set, has ExecuteMemory draw the overview
	// while a large run goes on (Estimate at least LiveMinEvents events),
	// at 20 % and 50 % of the simulated time, told to Observe as stage
	// "live" with the figure; the outputs are the same. Execute ignores it.
	LiveFigures bool
}

// DefaultOutDir is where outputs go when Options.OutDir is empty: out/<name>.
func DefaultOutDir(name string) string { return filepath.Join("out", name) }

// Output is what Execute produced.
type Output struct {
	Result *topology.Result
	// Dir is the output directory.
	Dir string
	// Files are the paths written, in the order written.
	Files []string
	// Warnings are the figures that could not be drawn.
	Warnings []string
}

// Output file names inside the output directory.
const (
	SummaryFile    = "summary.json"
	TimeSeriesFile = "timeseries.csv"
	// TraceFile holds sampled requests as Chrome trace-event JSON.
	TraceFile = "trace.json"
)

// Execute runs exp and writes its outputs. Before simulating it refuses a
// run over opt.Budget (runner.ErrBudget) and checks and stages the output folder
// (ErrOutput); the outputs are committed as one set (atomicfile.Dir), so
// a failed or stopped run leaves the previous set untouched. A figure
// that cannot be drawn is a warning (Output.Warnings), not an error.
func Execute(exp *experiment.Experiment, opt Options) (*Output, error) {
	cfg, err := model(exp, opt)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	cfg.Trace = topology.TraceConfig{Every: opt.TraceEvery, Max: opt.TraceMax}
	writes := runner.WritesSeries | runner.WritesEvents
	if opt.HistogramSeries {
		writes |= runner.WritesOpenMetrics // the histograms are recorded for metrics.om
	}
	if err := opt.Budget.Check([]runner.PlannedRun{{Model: cfg, Times: 1, Writes: writes}}); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	out := &Output{Dir: opt.OutDir}
	switch {
	case out.Dir != "":
	case opt.Replica != nil:
		out.Dir = DefaultReplicaDir(exp.Name, *opt.Replica)
	default:
		out.Dir = DefaultOutDir(exp.Name)
	}
	stage, err := stageOutput(out.Dir)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	defer stage.Abort()
	opt.LiveFigures = false // ExecuteMemory's only
	if out.Result, err = simulate(cfg, opt); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	if err := out.write(stage.Path(), opt); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	if err := stage.Commit(); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	out.Files = underDir(out.Files, stage.Path(), out.Dir)
	return out, nil
}

// simulate runs one model under opt's progress callback, context and
// budget guard: the part of a run that Execute and ExecuteMemory share.
func simulate(cfg topology.Config, opt Options) (*topology.Result, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ro := runner.Options{HistogramSeries: opt.HistogramSeries, Progress: liveProgress(cfg, opt)}
	return runner.NewMeter(ctx, opt.Budget, cfg).Run(cfg, ro)
}

// write writes a run's files into dir (the staging folder).
func (out *Output) write(dir string, opt Options) error {
	res := out.Result
	files := []output{
		{SummaryFile, func(w io.Writer) error {
			b, err := SummaryJSON(res)
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		}},
		{TimeSeriesFile, func(w io.Writer) error { return metrics.WriteCSV(w, res.Series) }},
		{EventsFile, func(w io.Writer) error { return WriteEventsCSV(w, res.EventLog) }},
	}
	if opt.TraceEvery > 0 {
		files = append(files, output{TraceFile, res.WriteTrace})
	}
	paths, err := writeOutputs(dir, files)
	if err != nil {
		return err
	}
	out.Files = paths
	if opt.Plots {
		var figs []compareFigure
		for _, f := range figures.Default(res) {
			figs = append(figs, growingFigure(f.File, f.Figure))
		}
		paths, warn := writeFigures(dir, figs, opt.SVG)
		out.Files = append(out.Files, paths...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

// model returns the configuration Execute runs: the base with its seed or
// opt.Seed, or opt.Replica's.
func model(exp *experiment.Experiment, opt Options) (topology.Config, error) {
	seed := exp.Model.Seed
	if opt.Seed != nil {
		seed = *opt.Seed
	}
	if opt.Replica != nil {
		return ReplicaModel(exp, *opt.Replica, seed)
	}
	cfg := exp.Model
	cfg.Seed = seed
	return cfg, nil
}

// figureFiles returns the file names a figure is written to: the PNG, and
// with svg the SVG too.
func figureFiles(png string, svg bool) []string {
	if !svg {
		return []string{png}
	}
	return []string{png, strings.TrimSuffix(png, ".png") + ".svg"}
}
