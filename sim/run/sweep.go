package run

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/internal/version"
	"github.com/ressim/ressim/sim/analysis"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// Sweep output files.
const (
	SweepCSV      = "sweep.csv"
	SweepJSON     = "sweep.json"
	SweepMarkdown = "sweep.md"
)

// SweepResult is every cell of a parameter grid, for every swept variant.
type SweepResult struct {
	Name         string
	Seed         uint64
	Replications int
	Sweep        *experiment.Sweep
	Variants     []string
	// Cells[v][y][x] are the replications' headlines of variant v at
	// (X.Values[x], Y.Values[y]); with one axis, y is 0.
	Cells [][][][]Headline
	// Records[v][y][x][r] is what sweep.json lists of replication r of
	// that cell.
	Records [][][][]RunRecord

	// capacity[v] is variant v's capacity for the client whose rate the
	// x axis sets, if that is what it sets and every cell agrees on it.
	capacity []*Capacity
}

// CellStat is the swept metric of one cell.
type CellStat struct {
	Variant string
	v       int // index into SweepResult.Variants
	X, Y    int
	N       int
	// Value is the metric's mean over the replications (the locked-in
	// probability for "locked_in_probability"); CI95 its 95 % interval
	// (Student t, or Wilson for a probability).
	Value float64
	CI95  analysis.Interval
}

// SweepOutput is what RunSweep produced.
type SweepOutput struct {
	Result *SweepResult
	Stats  []CellStat
	Dir    string
	Files  []string
	// Warnings are the figures that could not be drawn.
	Warnings []string
}

// RunSweep runs the experiment's [sweep] grid and writes its table and
// plots: a heatmap of the metric over the two axes per variant (the phase
// diagram), or, for one axis, the metric against it with a line per
// variant.
func RunSweep(ctx context.Context, exp *experiment.Experiment, opt CompareOptions) (*SweepOutput, error) {
	res, cells, g, err := startSweep(ctx, exp, opt)
	if err != nil {
		return nil, err
	}
	out := &SweepOutput{Result: res, Dir: sweepDir(exp.Name, opt.OutDir)}
	stage, err := stageOutput(out.Dir)
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	defer stage.Abort()
	runErr := res.runCells(ctx, cells, opt, g)
	if runErr != nil && !isStop(runErr) {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, runErr)
	}
	if res.Replications == 0 {
		return out, runErr
	}
	if err := out.commit(stage, opt); err != nil {
		return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	return out, runErr
}

// startSweep sets the sweep up (newSweep), checks its whole plan against
// opt.Budget and returns the meter its runs share.
func startSweep(ctx context.Context, exp *experiment.Experiment, opt CompareOptions) (*SweepResult, []sweepCell, *meter, error) {
	res, cells, err := newSweep(exp, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	plan := make([]PlannedRun, len(cells))
	cfgs := make([]topology.Config, len(cells))
	for i, c := range cells {
		plan[i], cfgs[i] = PlannedRun{Model: c.cfg, Times: res.Replications}, c.cfg
	}
	if err := opt.Budget.Check(plan); err != nil {
		return nil, nil, nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
	}
	return res, cells, newMeter(ctx, opt.Budget, cfgs...), nil
}

// sweepDir is the sweep's output folder: dir, or out/<name>/sweep.
func sweepDir(name, dir string) string {
	if dir == "" {
		return filepath.Join(DefaultOutDir(name), "sweep")
	}
	return dir
}

// newSweep sets up the sweep of exp under opt (seed, replications,
// variants) with its records allocated, and builds every cell's model.
// RunSweep, the shards and MergeSweep all start from it, so that they
// agree on the grid and the order of the cells.
func newSweep(exp *experiment.Experiment, opt CompareOptions) (*SweepResult, []sweepCell, error) {
	sw := exp.Sweep
	if sw == nil {
		return nil, nil, fmt.Errorf("sweep %s: the file has no [sweep] table", exp.Name)
	}
	seed, reps := opt.seedAndReps(exp)
	variants := sw.Variants
	if len(variants) == 0 {
		variants = []string{"base"}
	}
	nx, ny := len(sw.X.Values), 1
	if sw.Y != nil {
		ny = len(sw.Y.Values)
	}
	res := &SweepResult{Name: exp.Name, Seed: seed, Replications: reps, Sweep: sw, Variants: variants}
	cells, err := sweepCells(exp, variants, nx, ny)
	if err != nil {
		return nil, nil, err
	}
	res.alloc(len(variants), nx, ny, reps)
	res.capacity = sweepCapacity(sw, cells, len(variants))
	return res, cells, nil
}

// commit writes the sweep's files into stage and commits it whole. The
// unsharded sweep and MergeSweep both end here: the same records in the
// same order give the same bytes.
func (out *SweepOutput) commit(stage *atomicfile.Dir, opt CompareOptions) error {
	if err := out.write(stage.Path(), opt); err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	out.Files = underDir(out.Files, stage.Path(), out.Dir)
	return nil
}

// sweepCell is one cell of the grid for one variant, and its model.
type sweepCell struct {
	cfg     topology.Config
	v, y, x int
}

// sweepCells builds every cell's configuration up front: errors surface
// before any run, and the runs only read them.
func sweepCells(exp *experiment.Experiment, variants []string, nx, ny int) ([]sweepCell, error) {
	var cells []sweepCell
	for v, name := range variants {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				cfg, err := CellModel(exp, name, x, y)
				if err != nil {
					return nil, fmt.Errorf("sweep %s: %w", exp.Name, err)
				}
				cells = append(cells, sweepCell{cfg, v, y, x})
			}
		}
	}
	return cells, nil
}

func (r *SweepResult) alloc(nv, nx, ny, reps int) {
	r.Cells = make([][][][]Headline, nv)
	r.Records = make([][][][]RunRecord, nv)
	for v := range r.Cells {
		r.Cells[v] = make([][][]Headline, ny)
		r.Records[v] = make([][][]RunRecord, ny)
		for y := 0; y < ny; y++ {
			r.Cells[v][y] = make([][]Headline, nx)
			r.Records[v][y] = make([][]RunRecord, nx)
			for x := 0; x < nx; x++ {
				r.Cells[v][y][x] = make([]Headline, reps)
				r.Records[v][y][x] = make([]RunRecord, reps)
			}
		}
	}
}

// runCells runs every cell's replications, keeping each run's record
// only. On a stop (cancellation, budget) it keeps the replications that
// every cell finished and returns the reason.
func (r *SweepResult) runCells(ctx context.Context, cells []sweepCell, opt CompareOptions, g *meter) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g.ctx = ctx
	var mu sync.Mutex
	var firstErr error
	done := make([]int, r.Replications) // cells finished per replication
	_, cancelled := parallel(ctx, len(cells)*r.Replications, opt.Jobs, func(i int) {
		rep, c := i/len(cells), cells[i%len(cells)]
		cfg := c.cfg
		cfg.Seed = ReplicationSeed(r.Seed, rep)
		_, rec, err := runRecorded(cfg, rep, g, "", 0, "")
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil || (isStop(firstErr) && !isStop(err)) {
				firstErr = err
			}
			cancel()
			return
		}
		r.Cells[c.v][c.y][c.x][rep] = rec.Headline
		r.Records[c.v][c.y][c.x][rep] = rec
		done[rep]++
	}, opt.Progress)
	if firstErr == nil {
		firstErr = cancelled
	}
	if firstErr != nil {
		whole := 0
		for whole < len(done) && done[whole] == len(cells) {
			whole++
		}
		r.truncate(whole)
	}
	return firstErr
}

func (r *SweepResult) truncate(reps int) {
	r.Replications = reps
	for v := range r.Cells {
		for y := range r.Cells[v] {
			for x := range r.Cells[v][y] {
				r.Cells[v][y][x] = r.Cells[v][y][x][:reps]
				r.Records[v][y][x] = r.Records[v][y][x][:reps]
			}
		}
	}
}

// write writes the sweep's files into dir (the staging folder).
func (out *SweepOutput) write(dir string, opt CompareOptions) error {
	res := out.Result
	out.Stats = res.stats()
	paths, err := writeOutputs(dir, []output{
		{SweepCSV, func(w io.Writer) error { return writeSweepCSV(w, res, out.Stats) }},
		{SweepJSON, func(w io.Writer) error { return writeSweepJSON(w, res, out.Stats) }},
		{SweepMarkdown, func(w io.Writer) error { return WriteSweepTable(w, res, out.Stats) }},
	})
	if err != nil {
		return err
	}
	out.Files = paths
	if opt.Plots {
		figs, warn := writeFigures(dir, res.figures(out.Stats), opt.SVG)
		out.Files = append(out.Files, figs...)
		out.Warnings = append(out.Warnings, warn...)
	}
	return nil
}

func (r *SweepResult) stats() []CellStat {
	var out []CellStat
	m := metricByName(r.Sweep.Metric)
	for v, name := range r.Variants {
		for y := range r.Cells[v] {
			for x, hs := range r.Cells[v][y] {
				cs := CellStat{Variant: name, v: v, X: x, Y: y, N: len(hs)}
				if m == nil {
					k := lockedInCount(hs)
					cs.Value = float64(k) / float64(max(len(hs), 1))
					cs.CI95 = analysis.Wilson(k, len(hs))
				} else {
					s := analysis.Summarize(finite(m.values(hs)))
					cs.Value, cs.CI95 = s.Mean, s.CI95
					if s.N == 0 {
						cs.Value = math.NaN()
					}
				}
				out = append(out, cs)
			}
		}
	}
	return out
}

func (r *SweepResult) unit() string {
	if m := metricByName(r.Sweep.Metric); m != nil {
		return m.Unit
	}
	return "probability"
}

// WriteSweepTable writes the grid as Markdown: per variant, a table with
// the Y values as rows and the X values as columns.
func WriteSweepTable(w io.Writer, r *SweepResult, stats []CellStat) error {
	var b strings.Builder
	sw := r.Sweep
	fmt.Fprintf(&b, "# %s: %s (%s) over %s", r.Name, sw.Metric, r.unit(), sw.X.Label)
	if sw.Y != nil {
		fmt.Fprintf(&b, " x %s", sw.Y.Label)
	}
	fmt.Fprintf(&b, "\n\n%d replication(s) per cell, seed %d.\n", r.Replications, r.Seed)
	for _, v := range r.Variants {
		fmt.Fprintf(&b, "\n## %s\n\n| %s \\ %s |", v, yLabel(sw), sw.X.Label)
		for _, xv := range sw.X.Values {
			fmt.Fprintf(&b, " %v |", xv)
		}
		b.WriteString("\n| --- |")
		for range sw.X.Values {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
		rows := 1
		if sw.Y != nil {
			rows = len(sw.Y.Values)
		}
		for y := 0; y < rows; y++ {
			if sw.Y != nil {
				fmt.Fprintf(&b, "| %v |", sw.Y.Values[y])
			} else {
				b.WriteString("| |")
			}
			for _, s := range stats {
				if s.Variant == v && s.Y == y {
					fmt.Fprintf(&b, " %s |", fmtNum(s.Value))
				}
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yLabel(sw *experiment.Sweep) string {
	if sw.Y == nil {
		return ""
	}
	return sw.Y.Label
}

func writeSweepCSV(w io.Writer, r *SweepResult, stats []CellStat) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "x_path", "x", "y_path", "y", "metric", "unit", "n", "value", "ci_lo", "ci_hi"})
	f := csvNum
	sw := r.Sweep
	for _, s := range stats {
		yp, yv := "", ""
		if sw.Y != nil {
			yp, yv = sw.Y.Path, fmt.Sprint(sw.Y.Values[s.Y])
		}
		cw.Write([]string{s.Variant, sw.X.Path, fmt.Sprint(sw.X.Values[s.X]), yp, yv, sw.Metric, r.unit(),
			strconv.Itoa(s.N), f(s.Value), f(s.CI95.Lo), f(s.CI95.Hi)})
	}
	cw.Flush()
	return cw.Error()
}

func writeSweepJSON(w io.Writer, r *SweepResult, stats []CellStat) error {
	type cellJSON struct {
		Variant string   `json:"variant"`
		X       any      `json:"x"`
		Y       any      `json:"y,omitempty"`
		XIndex  int      `json:"x_index"`
		YIndex  *int     `json:"y_index,omitempty"`
		N       int      `json:"n"`
		Value   *float64 `json:"value"`
		Lo      *float64 `json:"ci95_lo"`
		Hi      *float64 `json:"ci95_hi"`
		// Every replication of the cell; re-run one with
		// ressim run FILE --variant V --cell X[,Y] --replication K.
		Runs []runRecordJSON `json:"replications"`
	}
	doc := struct {
		Version      string     `json:"ressim_version"`
		Experiment   string     `json:"experiment"`
		Seed         uint64     `json:"seed"`
		Replications int        `json:"replications"`
		Metric       string     `json:"metric"`
		Unit         string     `json:"unit"`
		XPath        string     `json:"x_path"`
		YPath        string     `json:"y_path,omitempty"`
		Cells        []cellJSON `json:"cells"`
	}{Version: version.Version, Experiment: r.Name, Seed: r.Seed, Replications: r.Replications,
		Metric: r.Sweep.Metric, Unit: r.unit(), XPath: r.Sweep.X.Path}
	if r.Sweep.Y != nil {
		doc.YPath = r.Sweep.Y.Path
	}
	for _, s := range stats {
		c := cellJSON{Variant: s.Variant, X: r.Sweep.X.Values[s.X], XIndex: s.X, N: s.N, Value: num(s.Value), Lo: num(s.CI95.Lo), Hi: num(s.CI95.Hi),
			Runs: recordsJSON(r.Records[s.v][s.Y][s.X])}
		if r.Sweep.Y != nil {
			c.Y = r.Sweep.Y.Values[s.Y]
			y := s.Y
			c.YIndex = &y
		}
		doc.Cells = append(doc.Cells, c)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func indices(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

func valueLabels(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	return out
}
