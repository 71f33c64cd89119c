package compare

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// Comparison output files.
const (
	JSONFile     = "compare.json"
	CSVFile      = "compare.csv"
	MarkdownFile = "compare.md"
	// SeriesFile is every run's time series in one tidy table.
	SeriesFile = "timeseries.csv"
)

// Run runs every variant of exp and writes the comparison into sink:
// tables (JSON, CSV, Markdown), the time series (opt.Series) and, with
// opt.Plots, overlay and bar charts. The sink is opened (a Folder checked
// and staged, output.ErrOutput) before any run, and the set is committed whole
// at the end. When ctx is cancelled or the budget stops a run, it writes
// the whole replications that finished and returns the reason with the
// output. A figure that cannot be drawn is a warning (Warnings), not an
// error: the data files are written regardless. An interactive sink
// (Memory) gets no timeseries.csv and always the figures.
func Run(ctx context.Context, exp *experiment.Experiment, opt run.CompareOptions, sink output.Sink) (*Output, error) {
	if err := run.CheckSeries(opt.Series); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	if err := sink.Open(filepath.Join(run.DefaultOutDir(exp.Name), "compare")); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	out := &Output{Dir: sink.OutDir()}
	mode, spool := run.SeriesMode(exp, opt), ""
	if sink.Interactive() {
		mode, opt.Plots = experiment.SeriesNone, true
	} else if mode == experiment.SeriesAll {
		spool = filepath.Join(sink.Scratch(), spoolDir)
		if err := os.Mkdir(spool, 0o755); err != nil {
			return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
		}
	}
	c, runErr := runAll(ctx, exp, opt, spool)
	if c == nil {
		return nil, runErr
	}
	out.Comparison = c
	if c.Replications == 0 {
		return out, runErr
	}
	if err := out.write(sink, opt, mode, spool); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	if err := sink.Commit(); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	return out, runErr
}

// write writes the comparison's files into sink; spool is the folder of
// every run's series rows ("" unless mode is "all").
func (out *Output) write(sink output.Sink, opt run.CompareOptions, mode, spool string) error {
	c := out.Comparison
	stats, locked := c.Stats()
	out.Stats, out.Locked = stats, locked
	files := []output.File{
		{Name: JSONFile, Fill: func(w io.Writer) error { return writeCompareJSON(w, c, stats, locked) }},
		{Name: CSVFile, Fill: func(w io.Writer) error { return writeCompareCSV(w, stats, locked) }},
		{Name: MarkdownFile, Fill: func(w io.Writer) error { return WriteTable(w, c, stats, locked, true) }},
	}
	if reps := run.SeriesReplications(mode, c.Replications); reps > 0 {
		files = append(files, output.File{Name: SeriesFile, Fill: func(w io.Writer) error { return writeCompareSeries(w, c, reps, spool) }})
	}
	paths, err := output.WriteFiles(sink, files)
	if err != nil {
		return err
	}
	if spool != "" {
		os.RemoveAll(spool)
	}
	out.Files = paths
	if opt.Plots {
		figs, warn := output.DrawFigures(sink, Figures(c, stats, locked))
		out.Files = append(out.Files, figs...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

// Output is what Run produced.
type Output struct {
	Comparison *Comparison
	Stats      []MetricStats
	Locked     []LockedIn
	Dir        string
	Files      []string
	// Warnings are the figures that could not be drawn (the data files
	// were written).
	Warnings []string
}

// WriteCompareTable writes the side-by-side table: one row per variant,
// one column per metric, "mean [lo, hi]", and for each variant but the
// base the paired difference from the base with its interval, marked
// with * where the interval excludes zero. markdown selects a Markdown
// table; otherwise columns are aligned for a terminal.
func WriteTable(w io.Writer, c *Comparison, stats []MetricStats, locked []LockedIn, markdown bool) error {
	header := []string{"variant"}
	for _, ms := range stats {
		unit, _ := displayUnit(ms.Metric)
		header = append(header, fmt.Sprintf("%s (%s)", ms.Metric.Label, unit))
	}
	if len(locked) > 0 {
		header = append(header, headline.LockedInProbability.Label())
	}
	var rows [][]string
	for a, arm := range c.Arms {
		row := []string{arm.Name}
		for _, ms := range stats {
			st := ms.Arms[a]
			if st.Summary.N == 0 {
				row = append(row, "-")
				continue
			}
			_, scale := displayUnit(ms.Metric)
			row = append(row, compareCell(scaled(st, scale)))
		}
		if len(locked) > 0 {
			l := locked[a]
			row = append(row, fmt.Sprintf("%d/%d [%s, %s]", l.Count, l.Total, run.FmtNum(l.CI95.Lo), run.FmtNum(l.CI95.Hi)))
		}
		rows = append(rows, row)
	}
	var b bytes.Buffer
	if markdown {
		fmt.Fprintf(&b, "# %s: %d variant(s) x %d replication(s), seed %d\n\n", c.Name, len(c.Arms), c.Replications, c.Seed)
		b.WriteString("Means with 95 % Student-t intervals over the replications; Δ is the paired difference from\n")
		b.WriteString("the base (common random numbers), marked * where its interval excludes zero.\n")
		b.WriteString("P(locked in) has a 95 % Wilson interval.\n\n")
		b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
		for range header {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
		for _, r := range rows {
			b.WriteString("| " + strings.Join(r, " | ") + " |\n")
		}
	} else {
		// One block per variant keeps wide tables readable on a terminal.
		for i, r := range rows {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s\n", r[0])
			for j := 1; j < len(r); j++ {
				fmt.Fprintf(&b, "  %-34s %s\n", header[j], r[j])
			}
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeCompareCSV(w io.Writer, stats []MetricStats, locked []LockedIn) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"metric", "unit", "variant", "n", "mean", "ci_lo", "ci_hi", "diff_mean", "diff_ci_lo", "diff_ci_hi", "significant"})
	f := run.CSVNum
	for _, ms := range stats {
		for _, st := range ms.Arms {
			row := []string{ms.Metric.Name, ms.Metric.Unit, st.Arm, strconv.Itoa(st.Summary.N), "", "", "", "", "", "", ""}
			if st.Summary.N > 0 {
				row[4] = f(st.Summary.Mean)
			}
			if st.Summary.Defined {
				row[5], row[6] = f(st.Summary.CI95.Lo), f(st.Summary.CI95.Hi)
			}
			if d := st.Diff; d != nil {
				row[7] = f(d.Mean)
				if d.Defined {
					row[8], row[9] = f(d.CI95.Lo), f(d.CI95.Hi)
					row[10] = strconv.FormatBool(d.CI95.ExcludesZero())
				}
			}
			cw.Write(row)
		}
	}
	for _, l := range locked {
		li := headline.LockedInProbability
		cw.Write([]string{li.Name(), li.Unit(), l.Arm, strconv.Itoa(l.Total), f(l.P), f(l.CI95.Lo), f(l.CI95.Hi), "", "", "", ""})
	}
	cw.Flush()
	return cw.Error()
}

type jsonStat struct {
	Variant     string   `json:"variant"`
	N           int      `json:"n"`
	Mean        *float64 `json:"mean"`
	CILo        *float64 `json:"ci95_lo"`
	CIHi        *float64 `json:"ci95_hi"`
	DiffMean    *float64 `json:"diff_mean,omitempty"`
	DiffLo      *float64 `json:"diff_ci95_lo,omitempty"`
	DiffHi      *float64 `json:"diff_ci95_hi,omitempty"`
	Significant *bool    `json:"significant,omitempty"`
}

func writeCompareJSON(w io.Writer, c *Comparison, stats []MetricStats, locked []LockedIn) error {
	type metric struct {
		Metric   string     `json:"metric"`
		Unit     string     `json:"unit"`
		Variants []jsonStat `json:"variants"`
	}
	type lockedJSON struct {
		Variant string   `json:"variant"`
		Count   int      `json:"locked_in"`
		Total   int      `json:"replications"`
		P       *float64 `json:"probability"`
		Lo      *float64 `json:"ci95_lo"`
		Hi      *float64 `json:"ci95_hi"`
	}
	type variant struct {
		Name        string   `json:"name"`
		Description string   `json:"description,omitempty"`
		Seeds       []uint64 `json:"seeds"`
		// The users' latency over every replication, merged exactly.
		P50LatencyS *float64         `json:"merged_p50_latency_s"`
		P99LatencyS *float64         `json:"merged_p99_latency_s"`
		Latency     metrics.Snapshot `json:"merged_latency_histogram_ns"`
		// Every replication: seed, fault verdicts, headline metrics.
		Runs []run.RunRecordJSON `json:"replications"`
	}
	doc := struct {
		Version      string       `json:"ressim_version"`
		Experiment   string       `json:"experiment"`
		Seed         uint64       `json:"seed"`
		Replications int          `json:"replications"`
		Variants     []variant    `json:"variants"`
		Metrics      []metric     `json:"metrics"`
		LockedIn     []lockedJSON `json:"locked_in"`
	}{Version: version.Version, Experiment: c.Name, Seed: c.Seed, Replications: c.Replications, Metrics: []metric{}, LockedIn: []lockedJSON{}}
	for i, a := range c.Arms {
		v := variant{Name: a.Name, Description: a.Description, Runs: run.RecordsJSON(c.Records[i])}
		for r := 0; r < c.Replications; r++ {
			v.Seeds = append(v.Seeds, run.ReplicationSeed(c.Seed, r))
		}
		h := &c.latency[i]
		v.P50LatencyS, v.P99LatencyS = run.QuantileSeconds(h, 0.5), run.QuantileSeconds(h, 0.99)
		v.Latency = h.Snapshot()
		doc.Variants = append(doc.Variants, v)
	}
	for _, ms := range stats {
		m := metric{Metric: ms.Metric.Name, Unit: ms.Metric.Unit}
		for _, st := range ms.Arms {
			m.Variants = append(m.Variants, newJSONStat(st))
		}
		doc.Metrics = append(doc.Metrics, m)
	}
	for _, l := range locked {
		doc.LockedIn = append(doc.LockedIn, lockedJSON{Variant: l.Arm, Count: l.Count, Total: l.Total,
			P: run.JSONNum(l.P), Lo: run.JSONNum(l.CI95.Lo), Hi: run.JSONNum(l.CI95.Hi)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// seriesHeader is the header of a comparison's timeseries.csv.
var seriesHeader = []string{"variant", "replication", "seed", "t_start_s", "t_end_s", "entity", "metric", "unit", "value"}

// writeCompareSeries writes the time series of the first reps
// replications of every variant as one tidy CSV: one row per variant,
// replication, interval, entity and metric. Replication 0 comes from the
// kept result; with a spool folder every replication comes from its
// spool file, in (variant, replication) order.
func writeCompareSeries(w io.Writer, c *Comparison, reps int, spool string) error {
	cw := csv.NewWriter(w)
	cw.Write(seriesHeader)
	cw.Flush()
	for a, arm := range c.Arms {
		for r := 0; r < reps; r++ {
			if spool == "" {
				writeSeriesRows(cw, arm.Name, r, c.Runs[a][r])
				continue
			}
			if err := copySpool(w, spool, a, r); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeSeriesRows writes one run's rows of a comparison's timeseries.csv.
func writeSeriesRows(cw *csv.Writer, arm string, r int, res *topology.Result) {
	sec := func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e9, 'f', -1, 64) }
	ts := res.Series
	seed := strconv.FormatUint(res.Seed, 10)
	rep := strconv.Itoa(r)
	for i := 0; i < ts.Len(); i++ {
		t0, t1 := sec(ts.Start(i)), sec(ts.End(i))
		for _, col := range ts.Columns() {
			cw.Write([]string{arm, rep, seed, t0, t1, col.Entity(), col.Metric(), col.Unit(), run.CSVNum(col.Value(i))})
		}
	}
	cw.Flush()
}

// compareCell is a variant's cell of the table: the mean with its
// interval, then the paired difference from the base, marked * where its
// interval excludes zero.
func compareCell(st ArmStat) string {
	cell := run.FmtNum(st.Summary.Mean)
	if st.Summary.Defined {
		cell += fmt.Sprintf(" [%s, %s]", run.FmtNum(st.Summary.CI95.Lo), run.FmtNum(st.Summary.CI95.Hi))
	}
	if d := st.Diff; d != nil {
		mark := ""
		if d.Defined && d.CI95.ExcludesZero() {
			mark = " *"
		}
		cell += fmt.Sprintf(" Δ %s", run.FmtNum(d.Mean))
		if d.Defined {
			cell += fmt.Sprintf(" [%s, %s]", run.FmtNum(d.CI95.Lo), run.FmtNum(d.CI95.Hi))
		}
		cell += mark
	}
	return cell
}

// newJSONStat is a variant's entry of a metric in compare.json.
func newJSONStat(st ArmStat) jsonStat {
	js := jsonStat{Variant: st.Arm, N: st.Summary.N}
	if st.Summary.N > 0 {
		js.Mean = run.JSONNum(st.Summary.Mean)
	}
	if st.Summary.Defined {
		js.CILo, js.CIHi = run.JSONNum(st.Summary.CI95.Lo), run.JSONNum(st.Summary.CI95.Hi)
	}
	if d := st.Diff; d != nil {
		js.DiffMean = run.JSONNum(d.Mean)
		if d.Defined {
			js.DiffLo, js.DiffHi = run.JSONNum(d.CI95.Lo), run.JSONNum(d.CI95.Hi)
			sig := d.CI95.ExcludesZero()
			js.Significant = &sig
		}
	}
	return js
}

// scaled returns st with its means and intervals multiplied by k.
func scaled(st ArmStat, k float64) ArmStat {
	if k == 1 {
		return st
	}
	sc := func(s analysis.Summary) analysis.Summary {
		s.Mean *= k
		s.CI95.Lo *= k
		s.CI95.Hi *= k
		return s
	}
	st.Summary = sc(st.Summary)
	if st.Diff != nil {
		d := sc(*st.Diff)
		st.Diff = &d
	}
	return st
}
