package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/fit"
	"github.com/ressim/ressim/sim/fit/callgraph"
	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/fit/preset"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/telemetry"
	"github.com/ressim/ressim/sim/telemetry/promapi"
	"github.com/ressim/ressim/sim/telemetry/promtext"
	"github.com/ressim/ressim/sim/telemetry/spans"
)

func newFitCmd() *cobra.Command {
	var o fitOptions
	c := &cobra.Command{
		Use:   "fit METRICS... [--traces FILE...]",
		Short: "Build an experiment from a system's own metrics and traces",
		Long: `Fit reads a system's metrics (and optionally traces) and writes an experiment
that reproduces its load and latencies: clients with the observed rates,
services with their pool sizes and own work, the calls between them with
their fan-out. Every fitted value carries a comment naming the series and
time range it came from and its fit quality; what the data do not give is
marked PLACEHOLDER. See docs/fit.md for the method and its assumptions.

METRICS are files in the Prometheus text format, OpenMetrics (ressim's own
metrics.om among them), 'promtool tsdb dump' output, or the JSON answer of a
Prometheus query_range saved to a file; several files are merged. With
--prometheus URL and --query SELECTOR the series come from a Prometheus
server instead (a range query from --start to --end at --step).

Metric names are read by a preset: ressim, istio, otel-http, otel-rpc,
grpc-prometheus, envoy, linkerd (--preset; detected from the series when
not given), or by a TOML --mapping file for anything else. --traces (OTLP
JSON, Zipkin v2 or Jaeger JSON, span CSV) give the call graph, the fan-out
and each service's own time (span time less its calls).

The window read is the steady part of the total request rate (MSER-5), or
--window START,END (RFC 3339 times or Unix seconds). With --into EXP the
fitted load, pool sizes and service times go onto that experiment (for
example one 'ressim import' made) instead of a new one; --map FIT=EXP
renames. --report DIR writes fit.txt, fit.json and a figure per service:
its observed latency histogram against the fitted model's.

Exit status: 0 fitted (possibly with placeholders), 2 unreadable or
unrecognised input or a bad command line.`,
		Example: "  ressim run experiments/mm10.toml --openmetrics -o /tmp/mm10 && ressim fit /tmp/mm10/metrics.om -o twin.toml\n" +
			"  ressim fit mesh.prom --preset istio --traces traces.json --report fit/ -o twin.toml\n" +
			"  ressim fit metrics.om --into imported.toml -o fitted.toml",
		RunE: func(c *cobra.Command, args []string) error {
			return runFit(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args, o)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "out", "o", "", "write the experiment to this file instead of standard output")
	f.StringArrayVar(&o.traces, "traces", nil, "a trace file (OTLP JSON, Zipkin v2 or Jaeger JSON, span CSV); repeatable")
	f.StringVar(&o.preset, "preset", "auto", "the metric naming convention: auto, "+strings.Join(presetNames(), ", "))
	f.StringVar(&o.mapping, "mapping", "", "a TOML file naming the metrics (instead of a preset; docs/fit.md)")
	f.StringVar(&o.window, "window", "", "START,END: the time range to read (RFC 3339 or Unix seconds); default: the steady window")
	f.StringVar(&o.into, "into", "", "put the fitted load and latencies onto this experiment instead of writing a new one")
	f.StringArrayVar(&o.maps, "map", nil, "with --into: FIT=EXP, the telemetry's name FIT is the experiment's EXP (repeatable)")
	f.StringVar(&o.report, "report", "", "write fit.txt, fit.json and fit-SERVICE.png into this folder")
	f.StringVar(&o.name, "name", "fitted", "the experiment's name")
	f.DurationVar(&o.duration, "duration", 0, "the fitted experiment's run length (default: the window's, within 60s..10m)")
	f.StringVar(&o.prometheus, "prometheus", "", "read the series from this Prometheus server (http://host:port)")
	f.StringVar(&o.query, "query", "", "with --prometheus: the PromQL selector to read, e.g. '{job=\"shop\"}'")
	f.StringVar(&o.start, "start", "", "with --prometheus: the range's start (RFC 3339 or Unix seconds)")
	f.StringVar(&o.end, "end", "", "with --prometheus: the range's end (RFC 3339 or Unix seconds)")
	f.DurationVar(&o.step, "step", 15*time.Second, "with --prometheus: the range query's step")
	f.DurationVar(&o.timeout, "timeout", time.Minute, "with --prometheus: give up on the server after this long")
	f.StringVar(&o.maxInput, "max-input", "512MiB", "refuse a metrics or trace file larger than this (e.g. 64MiB)")
	return c
}

type fitOptions struct {
	out, preset, mapping, window, into, report, name string
	maxInput                                         string
	prometheus, query, start, end                    string
	traces, maps                                     []string
	duration, step, timeout                          time.Duration
}

func presetNames() []string {
	var out []string
	for _, p := range preset.All() {
		out = append(out, p.Name)
	}
	return out
}

func runFit(ctx context.Context, stdout, stderr io.Writer, files []string, o fitOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(files) == 0 && o.prometheus == "" && len(o.traces) == 0 {
		return usageError{fmt.Errorf("fit: give at least one metrics file, --prometheus URL --query SELECTOR, or --traces FILE")}
	}
	limit, err := parseBytes(o.maxInput)
	if err != nil || limit == 0 || limit > 1<<40 {
		return usageError{fmt.Errorf("fit: --max-input %q: want a size such as 64MiB, at most 1TiB", o.maxInput)}
	}
	set, err := readMetrics(ctx, files, o, int64(limit))
	if err != nil {
		return usageError{err}
	}
	var into []byte
	if o.into != "" {
		if into, err = input.ReadFile(o.into, experiment.MaxFileSize); err != nil {
			return usageError{fmt.Errorf("fit: --into: %w", err)}
		}
	}
	obs := observe.Observations{Preset: "none (traces only)"}
	if len(set.Series) > 0 || len(files) > 0 || o.prometheus != "" {
		p, err := choosePreset(set, o)
		if err != nil {
			return usageError{err}
		}
		if obs, err = p.Read(set); err != nil {
			return usageError{fmt.Errorf("fit: reading the series as %s: %w", p.Name, err)}
		}
	}
	opt := fit.Options{Sources: append(append([]string{}, files...), o.traces...)}
	if o.prometheus != "" {
		opt.Sources = append(opt.Sources, o.prometheus)
	}
	if o.window != "" {
		w, err := parseWindow(o.window)
		if err != nil {
			return usageError{err}
		}
		opt.Window = &w
	}
	if len(o.traces) > 0 {
		var all []telemetry.Span
		for _, f := range o.traces {
			sp, _, err := spans.ReadFile(f, spans.Options{MaxBytes: int64(limit)})
			if err != nil {
				return usageError{fmt.Errorf("fit: --traces: %w", err)}
			}
			all = append(all, sp...)
		}
		g, err := callgraph.Build(all, callgraph.Options{})
		if err != nil {
			return usageError{fmt.Errorf("fit: --traces: %w", err)}
		}
		opt.Traces = fit.FromGraph(g, strings.Join(o.traces, ", "))
	}
	m, err := fit.Estimate(&obs, opt)
	if err != nil {
		return usageError{err}
	}
	text := fit.Write(m, fit.WriteOptions{Name: o.name, Duration: o.duration})
	var warnings []string
	if o.into != "" {
		ren, err := parseRenames(o.maps)
		if err != nil {
			return usageError{err}
		}
		if text, warnings, err = fit.Into(m, o.into, into, fit.IntoOptions{Rename: ren}); err != nil {
			return usageError{err}
		}
	} else if len(o.maps) > 0 {
		return usageError{fmt.Errorf("fit: --map needs --into")}
	} else if _, err := experiment.Parse("fitted", []byte(text)); err != nil {
		return fmt.Errorf("fit: the fitted experiment does not validate (a bug in fit): %w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "warning:", termsafe.Line(w))
	}
	if o.report != "" {
		if err := writeFitReport(o.report, m); err != nil {
			return err
		}
	}
	var rep bytes.Buffer
	if err := fit.WriteText(&rep, m); err != nil {
		return err
	}
	if o.out == "" {
		if _, err := stderr.Write(rep.Bytes()); err != nil {
			return err
		}
		_, err = io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(o.out, []byte(text), 0o644); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	_, err = stdout.Write(rep.Bytes())
	return err
}

// readMetrics reads every metrics file (text formats or a query_range
// JSON answer, told apart by the first byte) and the --prometheus range,
// and merges them.
func readMetrics(ctx context.Context, files []string, o fitOptions, limit int64) (telemetry.Set, error) {
	var sets []telemetry.Set
	for _, f := range files {
		data, err := input.ReadFile(f, limit)
		if err != nil {
			return telemetry.Set{}, fmt.Errorf("fit: %w", err)
		}
		var s telemetry.Set
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			s, err = promapi.ParseQueryRange(f, data)
		} else {
			s, err = promtext.Parse(f, data, promtext.Options{})
		}
		if err != nil {
			return telemetry.Set{}, fmt.Errorf("fit: %w", err)
		}
		sets = append(sets, s)
	}
	if o.prometheus != "" {
		if o.query == "" || o.start == "" || o.end == "" {
			return telemetry.Set{}, fmt.Errorf("fit: --prometheus needs --query, --start and --end")
		}
		start, err := parseInstant(o.start)
		if err != nil {
			return telemetry.Set{}, fmt.Errorf("fit: --start: %w", err)
		}
		end, err := parseInstant(o.end)
		if err != nil {
			return telemetry.Set{}, fmt.Errorf("fit: --end: %w", err)
		}
		ctx, cancel := context.WithTimeout(ctx, o.timeout)
		defer cancel()
		cl := promapi.Client{BaseURL: o.prometheus}
		s, err := cl.QueryRange(ctx, o.query, start, end, o.step)
		if err != nil {
			return telemetry.Set{}, fmt.Errorf("fit: --prometheus: %w", err)
		}
		sets = append(sets, s)
	} else if o.query != "" {
		return telemetry.Set{}, fmt.Errorf("fit: --query needs --prometheus")
	}
	return telemetry.Merge(sets...), nil
}

func choosePreset(set telemetry.Set, o fitOptions) (preset.Preset, error) {
	if o.mapping != "" {
		data, err := input.ReadFile(o.mapping, experiment.MaxFileSize)
		if err != nil {
			return preset.Preset{}, fmt.Errorf("fit: --mapping: %w", err)
		}
		return preset.FromMapping(o.mapping, data)
	}
	if o.preset == "" || o.preset == "auto" {
		return preset.Detect(set)
	}
	p, ok := preset.ByName(o.preset)
	if !ok {
		return preset.Preset{}, fmt.Errorf("fit: no preset %q; the presets are: auto, %s", o.preset, strings.Join(presetNames(), ", "))
	}
	return p, nil
}

// parseInstant reads an RFC 3339 time or Unix seconds.
func parseInstant(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e11 {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor Unix seconds", s)
	}
	return time.UnixMilli(int64(f * 1e3)).UTC(), nil
}

func parseWindow(s string) (fit.Window, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return fit.Window{}, fmt.Errorf("fit: --window wants START,END, got %q", s)
	}
	start, err := parseInstant(strings.TrimSpace(a))
	if err != nil {
		return fit.Window{}, fmt.Errorf("fit: --window: %w", err)
	}
	end, err := parseInstant(strings.TrimSpace(b))
	if err != nil {
		return fit.Window{}, fmt.Errorf("fit: --window: %w", err)
	}
	if !end.After(start) {
		return fit.Window{}, fmt.Errorf("fit: --window: the end %s is not after the start %s", end.Format(time.RFC3339), start.Format(time.RFC3339))
	}
	return fit.Window{Start: start.UnixMilli(), End: end.UnixMilli()}, nil
}

func parseRenames(maps []string) (map[string]string, error) {
	out := map[string]string{}
	for _, m := range maps {
		a, b, ok := strings.Cut(m, "=")
		if !ok || a == "" || b == "" {
			return nil, fmt.Errorf("fit: --map wants FIT=EXP, got %q", m)
		}
		out[a] = b
	}
	return out, nil
}

// writeFitReport writes fit.txt, fit.json and a figure per fitted
// service into dir, all or nothing.
func writeFitReport(dir string, m *fit.Model) error {
	sink := output.NewFolder(dir, false)
	if err := sink.Open(dir); err != nil {
		return err
	}
	defer sink.Abort()
	if _, err := sink.File("fit.txt", func(w io.Writer) error { return fit.WriteText(w, m) }); err != nil {
		return err
	}
	if _, err := sink.File("fit.json", func(w io.Writer) error { return fit.WriteJSON(w, m) }); err != nil {
		return err
	}
	for i := range m.Services {
		ch, ok := fit.Figure(&m.Services[i])
		if !ok {
			continue
		}
		if _, warns := sink.Figure(output.ChartFigure(fitFigureName(m.Services[i].Name), &ch)); len(warns) > 0 {
			return fmt.Errorf("fit: figure for %s: %s", m.Services[i].Name, strings.Join(warns, "; "))
		}
	}
	return sink.Commit()
}

// fitFigureName is a service's figure file: its name is a ressim-valid
// name (letters, digits, '-', '_', '.') when it came through the preset;
// anything else is replaced.
func fitFigureName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return "fit-" + string(b) + ".png"
}
