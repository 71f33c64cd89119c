package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/report"
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
	// Progress, if not nil, is called as simulated time advances, with the
	// time reached and the end.
	Progress func(now, end time.Duration)
	// Replica, if not nil, runs that replication of a variant (or of a
	// sweep cell) exactly as compare or sweep ran it, Seed being the
	// comparison's seed; the default OutDir is then DefaultReplicaDir.
	Replica *Replica
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
}

// Output file names inside the output directory.
const (
	SummaryFile    = "summary.json"
	TimeSeriesFile = "timeseries.csv"
	// TraceFile holds sampled requests as Chrome trace-event JSON.
	TraceFile = "trace.json"
)

// Execute runs exp and writes its outputs.
func Execute(exp *experiment.Experiment, opt Options) (*Output, error) {
	cfg, err := model(exp, opt)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	cfg.Trace = topology.TraceConfig{Every: opt.TraceEvery, Max: opt.TraceMax}
	m, err := topology.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	if opt.Progress != nil {
		m.OnProgress(opt.Progress)
	}
	res, err := m.Run()
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	out := &Output{Result: res, Dir: opt.OutDir}
	switch {
	case out.Dir != "":
	case opt.Replica != nil:
		out.Dir = DefaultReplicaDir(exp.Name, *opt.Replica)
	default:
		out.Dir = DefaultOutDir(exp.Name)
	}
	if err := os.MkdirAll(out.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("run %s: %w", exp.Name, err)
	}
	write := func(name string, fill func(path string) error) error {
		p := filepath.Join(out.Dir, name)
		if err := fill(p); err != nil {
			return err
		}
		out.Files = append(out.Files, p)
		return nil
	}
	if err := write(SummaryFile, func(p string) error {
		b, err := SummaryJSON(res)
		if err != nil {
			return err
		}
		return atomicfile.WriteBytes(p, b)
	}); err != nil {
		return nil, err
	}
	if err := write(TimeSeriesFile, func(p string) error {
		return atomicfile.Write(p, func(w io.Writer) error { return metrics.WriteCSV(w, res.Series) })
	}); err != nil {
		return nil, err
	}
	if opt.TraceEvery > 0 {
		if err := write(TraceFile, func(p string) error { return atomicfile.Write(p, res.WriteTrace) }); err != nil {
			return nil, err
		}
	}
	if opt.Plots {
		for _, f := range Figures(res) {
			for _, name := range figureFiles(f.File, opt.SVG) {
				if err := write(name, func(p string) error { return report.WriteFile(p, f.Figure) }); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
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
