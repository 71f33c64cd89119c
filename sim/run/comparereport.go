package run

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// Comparison output files.
const (
	CompareJSON     = "compare.json"
	CompareCSV      = "compare.csv"
	CompareMarkdown = "compare.md"
	// CompareSeries is every run's time series in one tidy table.
	CompareSeries = "timeseries.csv"
)

// Compare runs every variant of exp and writes the comparison into sink:
// tables (JSON, CSV, Markdown), the time series (opt.Series) and, with
// opt.Plots, overlay and bar charts. The sink is opened (a Folder checked
// and staged, output.ErrOutput) before any run, and the set is committed whole
// at the end. When ctx is cancelled or the budget stops a run, it writes
// the whole replications that finished and returns the reason with the
// output. A figure that cannot be drawn is a warning (Warnings), not an
// error: the data files are written regardless. An interactive sink
// (Memory) gets no timeseries.csv and always the figures.
func Compare(ctx context.Context, exp *experiment.Experiment, opt CompareOptions, sink output.Sink) (*CompareOutput, error) {
	if err := CheckSeries(opt.Series); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	if err := sink.Open(filepath.Join(DefaultOutDir(exp.Name), "compare")); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	defer sink.Abort()
	out := &CompareOutput{Dir: sink.OutDir()}
	mode := seriesMode(exp, opt)
	opt.spool = ""
	if sink.Interactive() {
		mode, opt.Plots = experiment.SeriesNone, true
	} else if mode == experiment.SeriesAll {
		opt.spool = filepath.Join(sink.Scratch(), spoolDir)
		if err := os.Mkdir(opt.spool, 0o755); err != nil {
			return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
		}
	}
	c, runErr := RunAll(ctx, exp, opt)
	if c == nil {
		return nil, runErr
	}
	out.Comparison = c
	if c.Replications == 0 {
		return out, runErr
	}
	if err := out.write(sink, opt, mode); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	if err := sink.Commit(); err != nil {
		return nil, fmt.Errorf("compare %s: %w", exp.Name, err)
	}
	return out, runErr
}

// write writes the comparison's files into sink.
func (out *CompareOutput) write(sink output.Sink, opt CompareOptions, mode string) error {
	c := out.Comparison
	stats, locked := c.Stats()
	out.Stats, out.Locked = stats, locked
	files := []output.File{
		{Name: CompareJSON, Fill: func(w io.Writer) error { return writeCompareJSON(w, c, stats, locked) }},
		{Name: CompareCSV, Fill: func(w io.Writer) error { return writeCompareCSV(w, stats, locked) }},
		{Name: CompareMarkdown, Fill: func(w io.Writer) error { return WriteCompareTable(w, c, stats, locked, true) }},
	}
	if reps := seriesReplications(mode, c.Replications); reps > 0 {
		files = append(files, output.File{Name: CompareSeries, Fill: func(w io.Writer) error { return writeCompareSeries(w, c, reps, opt.spool) }})
	}
	paths, err := output.WriteFiles(sink, files)
	if err != nil {
		return err
	}
	if opt.spool != "" {
		os.RemoveAll(opt.spool)
	}
	out.Files = paths
	if opt.Plots {
		figs, warn := output.DrawFigures(sink, CompareFigures(c, stats, locked))
		out.Files = append(out.Files, figs...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

// CompareOutput is what Compare produced.
type CompareOutput struct {
	Comparison *Comparison
	Stats      []MetricStats
	Locked     []LockedIn
	Dir        string
	Files      []string
	// Warnings are the figures that could not be drawn (the data files
	// were written).
	Warnings []string
}

// fmtNum formats a number with 4 significant digits ("-" for NaN).
func fmtNum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// WriteCompareTable writes the side-by-side table: one row per variant,
// one column per metric, "mean [lo, hi]", and for each variant but the
// base the paired difference from the base with its interval, marked
// with * where the interval excludes zero. markdown selects a Markdown
// table; otherwise columns are aligned for a terminal.
func WriteCompareTable(w io.Writer, c *Comparison, stats []MetricStats, locked []LockedIn, markdown bool) error {
	header := []string{"variant"}
	for _, ms := range stats {
		header = append(header, fmt.Sprintf("%s (%s)", ms.Metric.Label, ms.Metric.Unit))
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
			row = append(row, compareCell(st))
		}
		if len(locked) > 0 {
			l := locked[a]
			row = append(row, fmt.Sprintf("%d/%d [%s, %s]", l.Count, l.Total, fmtNum(l.CI95.Lo), fmtNum(l.CI95.Hi)))
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
	f := csvNum
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
		Runs []runRecordJSON `json:"replications"`
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
		v := variant{Name: a.Name, Description: a.Description, Runs: recordsJSON(c.Records[i])}
		for r := 0; r < c.Replications; r++ {
			v.Seeds = append(v.Seeds, ReplicationSeed(c.Seed, r))
		}
		h := &c.latency[i]
		v.P50LatencyS, v.P99LatencyS = quantileS(h, 0.5), quantileS(h, 0.99)
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
			P: num(l.P), Lo: num(l.CI95.Lo), Hi: num(l.CI95.Hi)})
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
			cw.Write([]string{arm, rep, seed, t0, t1, col.Entity(), col.Metric(), col.Unit(), csvNum(col.Value(i))})
		}
	}
	cw.Flush()
}

// compareCell is a variant's cell of the table: the mean with its
// interval, then the paired difference from the base, marked * where its
// interval excludes zero.
func compareCell(st ArmStat) string {
	cell := fmtNum(st.Summary.Mean)
	if st.Summary.Defined {
		cell += fmt.Sprintf(" [%s, %s]", fmtNum(st.Summary.CI95.Lo), fmtNum(st.Summary.CI95.Hi))
	}
	if d := st.Diff; d != nil {
		mark := ""
		if d.Defined && d.CI95.ExcludesZero() {
			mark = " *"
		}
		cell += fmt.Sprintf(" Δ %s", fmtNum(d.Mean))
		if d.Defined {
			cell += fmt.Sprintf(" [%s, %s]", fmtNum(d.CI95.Lo), fmtNum(d.CI95.Hi))
		}
		cell += mark
	}
	return cell
}

// newJSONStat is a variant's entry of a metric in compare.json.
func newJSONStat(st ArmStat) jsonStat {
	js := jsonStat{Variant: st.Arm, N: st.Summary.N}
	if st.Summary.N > 0 {
		js.Mean = num(st.Summary.Mean)
	}
	if st.Summary.Defined {
		js.CILo, js.CIHi = num(st.Summary.CI95.Lo), num(st.Summary.CI95.Hi)
	}
	if d := st.Diff; d != nil {
		js.DiffMean = num(d.Mean)
		if d.Defined {
			js.DiffLo, js.DiffHi = num(d.CI95.Lo), num(d.CI95.Hi)
			sig := d.CI95.ExcludesZero()
			js.Significant = &sig
		}
	}
	return js
}
