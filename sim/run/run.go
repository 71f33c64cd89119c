package run

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/export/openmetrics"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Options control one execution.
type Options struct {
	// Seed, if non-nil, overrides the experiment's seed.
	Seed *uint64
	// Plots draws the PNG figures; without it only data files are written.
	Plots bool
	// TraceEvery, if > 0, traces one user request in TraceEvery (at most
	// TraceMax, 0 meaning 200) into trace.json, trace.otlp.json or both,
	// as TraceFormat says.
	TraceEvery, TraceMax int
	// TraceFormat is the trace files' format (TracePerfetto: trace.json).
	TraceFormat TraceFormat
	// TraceStart is the instant simulated time 0 is mapped onto in
	// trace.otlp.json; zero means openmetrics.DefaultStart, as in
	// metrics.om.
	TraceStart time.Time
	// HistogramSeries records the per-interval latency histograms in
	// Output.Result.Histograms (topology.Model.RecordHistogramSeries), for
	// the OpenMetrics export; off, they are nil. The output budget counts
	// metrics.om when it is set.
	HistogramSeries bool
	// PrometheusText says the caller writes metrics.prom (the Prometheus
	// text export) too: the histograms are recorded and the output budget
	// counts it.
	PrometheusText bool
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
	// Observe, if not nil, hears the stages of Execute into a Memory sink as each ends:
	// "simulated", "figure" with the overview, "summary", then "figure"
	// once per other figure, with the figure (nil for the others); and,
	// with LiveFigures, "live" with a live overview while simulating. The playground uses it to show the
	// first figure while the others are drawn, and to time the stages.
	// Called on Execute's goroutine; a Folder sink ignores it.
	Observe func(stage string, fig *output.MemoryFigure)
	// LiveFigures, with Observe set, has Execute into a Memory sink draw the overview
	// while a large run goes on (Estimate at least LiveMinEvents events),
	// at 20 % and 50 % of the simulated time, told to Observe as stage
	// "live" with the figure; the outputs are the same. A Folder sink ignores it.
	LiveFigures bool
}

// DefaultOutDir is where a run goes when its Folder names no folder: out/<name>.
func DefaultOutDir(name string) string { return filepath.Join("out", name) }

// Output is what Execute produced.
type Output struct {
	Result *topology.Result
	// Dir is the output directory ("" for a Memory sink).
	Dir string
	// Files are the paths written (a Memory sink's names), in the order written.
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
	// TraceOTLPFile holds them as an OTLP/JSON trace (OpenTelemetry).
	TraceOTLPFile = "trace.otlp.json"
)

// Execute runs exp and writes its outputs into sink. Before simulating it
// refuses a run over opt.Budget (runner.ErrBudget) and opens the sink (a
// Folder is checked and staged, output.ErrOutput); the outputs are committed as
// one set, so a failed or stopped run leaves the previous set untouched.
// A figure that cannot be drawn is a warning (Output.Warnings), not an
// error. Into a Folder it writes summary.json, timeseries.csv, events.csv
// (trace.json, trace.otlp.json or both with TraceEvery), then with Plots the figures; into an
// interactive sink (Memory) the overview, summary.json, then the other
// figures, telling opt.Observe of each stage. Safe for concurrent use on
// distinct sinks.
func Execute(exp *experiment.Experiment, opt Options, sink output.Sink) (*Output, error) {
	out, err := execute(exp, opt, sink)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	return out, nil
}

func execute(exp *experiment.Experiment, opt Options, sink output.Sink) (*Output, error) {
	cfg, err := model(exp, opt)
	if err != nil {
		return nil, err
	}
	live := sink.Interactive()
	var writes runner.Writes
	if !live {
		cfg.Trace = topology.TraceConfig{Every: opt.TraceEvery, Max: opt.TraceMax}
		writes = runner.WritesSeries | runner.WritesEvents
		if opt.HistogramSeries {
			writes |= runner.WritesOpenMetrics // the histograms are recorded for metrics.om
		}
		if opt.PrometheusText {
			writes |= runner.WritesPrometheusText
		}
		if opt.TraceEvery > 0 && opt.TraceFormat.otlp() {
			writes |= runner.WritesTraceOTLP
		}
	}
	if err := opt.Budget.Check([]runner.PlannedRun{{Model: cfg, Times: 1, Writes: writes}}); err != nil {
		return nil, err
	}
	dir := DefaultOutDir(exp.Name)
	if opt.Replica != nil {
		dir = DefaultReplicaDir(exp.Name, *opt.Replica)
	}
	if !live {
		if err := sink.Open(dir); err != nil {
			return nil, err
		}
		opt.LiveFigures = false // the playground's only
	}
	defer sink.Abort()
	out := &Output{}
	if out.Result, err = simulate(cfg, opt); err != nil {
		return nil, err
	}
	out.Dir = sink.OutDir()
	if live {
		err = out.writeLive(sink, opt)
	} else {
		err = out.write(sink, opt)
	}
	if err != nil {
		return nil, err
	}
	return out, sink.Commit()
}

// simulate runs one model under opt's progress callback, context and
// budget guard.
func simulate(cfg topology.Config, opt Options) (*topology.Result, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ro := runner.Options{HistogramSeries: opt.HistogramSeries || opt.PrometheusText, Progress: liveProgress(cfg, opt)}
	return runner.NewMeter(ctx, opt.Budget, cfg).Run(cfg, ro)
}

// summaryOutput is a run's summary.json.
func summaryOutput(res *topology.Result) output.File {
	return output.File{Name: SummaryFile, Fill: func(w io.Writer) error {
		b, err := SummaryJSON(res)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}}
}

// write writes a run's files into sink, then with opt.Plots its figures.
func (out *Output) write(sink output.Sink, opt Options) error {
	res := out.Result
	files := []output.File{
		summaryOutput(res),
		{Name: TimeSeriesFile, Fill: func(w io.Writer) error { return metrics.WriteCSV(w, res.Series) }},
		{Name: EventsFile, Fill: func(w io.Writer) error { return WriteEventsCSV(w, res.EventLog) }},
	}
	files = append(files, traceFiles(res, opt)...)
	paths, err := output.WriteFiles(sink, files)
	if err != nil {
		return err
	}
	out.Files = paths
	if opt.Plots {
		var figs []output.Figure
		for _, f := range figures.Default(res) {
			figs = append(figs, output.Growing(f.File, f.Figure))
		}
		paths, warn := output.DrawFiguresParallel(sink, figs)
		out.Files = append(out.Files, paths...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

// writeLive writes a run into an interactive sink, telling opt.Observe of
// each stage: the first figure (the overview) is drawn before
// summary.json, which nobody looks at first, so the page shows it sooner.
func (out *Output) writeLive(sink output.Sink, opt Options) error {
	opt.observe("simulated", nil)
	summarize := func() error {
		paths, err := output.WriteFiles(sink, []output.File{summaryOutput(out.Result)})
		out.Files = append(out.Files, paths...)
		opt.observe("summary", nil)
		return err
	}
	figs := figures.Default(out.Result)
	for i, f := range figs {
		if i == 1 {
			if err := summarize(); err != nil {
				return err
			}
		}
		paths, warn := sink.Figure(output.Growing(f.File, f.Figure))
		out.Files = append(out.Files, paths...)
		out.Warnings = append(out.Warnings, warn...)
		if m, ok := sink.(*output.Memory); ok && len(paths) > 0 {
			opt.observe("figure", &m.Figures[len(m.Figures)-1])
		}
	}
	if len(figs) < 2 {
		return summarize()
	}
	return nil
}

// observe calls o.Observe, if set.
func (o Options) observe(stage string, fig *output.MemoryFigure) {
	if o.Observe != nil {
		o.Observe(stage, fig)
	}
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

// TraceFormat says which trace files a run with Options.TraceEvery
// writes.
type TraceFormat uint8

// The trace formats.
const (
	// TracePerfetto writes trace.json (Chrome trace events, for
	// ui.perfetto.dev): the default.
	TracePerfetto TraceFormat = iota
	// TraceOTLP writes trace.otlp.json (OpenTelemetry's OTLP/JSON).
	TraceOTLP
	// TraceBoth writes both.
	TraceBoth
)

var traceFormatNames = [...]string{"perfetto", "otlp", "both"}

// String names the format as --trace-format does.
func (f TraceFormat) String() string {
	if int(f) < len(traceFormatNames) {
		return traceFormatNames[f]
	}
	return fmt.Sprintf("TraceFormat(%d)", f)
}

// ParseTraceFormat returns the format named s: perfetto, otlp or both.
func ParseTraceFormat(s string) (TraceFormat, error) {
	for i, n := range traceFormatNames {
		if n == s {
			return TraceFormat(i), nil
		}
	}
	return 0, fmt.Errorf("trace format %q: want perfetto, otlp or both", s)
}

// perfetto and otlp say whether f writes each file.
func (f TraceFormat) perfetto() bool { return f != TraceOTLP }
func (f TraceFormat) otlp() bool     { return f != TracePerfetto }

// traceFiles are the trace files opt asks of res: none without
// TraceEvery.
func traceFiles(res *topology.Result, opt Options) []output.File {
	if opt.TraceEvery <= 0 {
		return nil
	}
	var files []output.File
	if opt.TraceFormat.perfetto() {
		files = append(files, output.File{Name: TraceFile, Fill: res.WriteTrace})
	}
	if opt.TraceFormat.otlp() {
		start := opt.TraceStart
		if start.IsZero() {
			start = openmetrics.DefaultStart
		}
		files = append(files, output.File{Name: TraceOTLPFile, Fill: func(w io.Writer) error { return res.WriteOTLPTrace(w, start) }})
	}
	return files
}
