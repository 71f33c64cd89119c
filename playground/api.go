package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/experiments"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// PageBudget is what a run in the page may cost: ressim's default
// (runner.DefaultBudget), with the heap bounded to 1 GiB (a browser tab, not
// a server).
func PageBudget() runner.Budget {
	b := runner.DefaultBudget
	b.MaxMemory = 1 << 30
	return b
}

// Bundled is one bundled experiment, as list returns it.
type Bundled struct {
	File        string `json:"file"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Text        string `json:"text"`
}

// Problem is one positioned problem in a file (experiment.Error).
type Problem struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Key  string `json:"key"`
	Msg  string `json:"msg"`
}

// Info is what the page needs to know of a valid file.
type Info struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Seed        uint64            `json:"seed"`
	DurationS   float64           `json:"duration_s"`
	Knobs       []experiment.Knob `json:"knobs"`
	// Variants are the [[variant]] names (compare runs them with the base).
	Variants []string `json:"variants"`
	// Replications is [experiment].replications (at least 1).
	Replications int `json:"replications"`
	// Sweep describes the [sweep] grid; nil without one.
	Sweep *SweepInfo `json:"sweep,omitempty"`
	// GameDay is the file's [gameday] (gameday.go); nil without one.
	GameDay *GameDayInfo `json:"game_day,omitempty"`
}

// SweepInfo is what the page shows of a [sweep] before running it.
type SweepInfo struct {
	Metric string `json:"metric"`
	// Cells is the points of the grid times the variants swept: the runs
	// per replication.
	Cells int `json:"cells"`
}

// Checked is validate's answer.
type Checked struct {
	Errors     []Problem `json:"errors"`
	Experiment *Info     `json:"experiment,omitempty"`
}

// Figure is one SVG figure.
type Figure struct {
	File string `json:"file"`
	SVG  string `json:"svg"`
}

// Ran is run's answer: the outputs, or what stopped the run.
type Ran struct {
	Errors []Problem `json:"errors,omitempty"`
	Error  string    `json:"error,omitempty"`
	Seed   uint64    `json:"seed"`
	// Summary is summary.json's text, byte for byte.
	Summary  string   `json:"summary,omitempty"`
	Figures  []Figure `json:"figures,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	WallMS   int64    `json:"wall_ms"`
}

// JSON encodes v as the JSON string handed to JavaScript.
func JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}

// List reads the bundled experiments, in file-name order.
func List() []Bundled {
	var out []Bundled
	names, _ := fs.Glob(experiments.FS(), "*.toml")
	for _, n := range names {
		b, err := fs.ReadFile(experiments.FS(), n)
		if err != nil {
			continue
		}
		x := Bundled{File: n, Name: strings.TrimSuffix(n, ".toml"), Text: string(b)}
		if exp, err := experiment.Parse(n, b); err == nil {
			x.Name, x.Description = exp.Name, exp.Description
		}
		out = append(out, x)
	}
	return out
}

// Validate parses text as the CLI does and lists its problems.
func Validate(text string) Checked {
	exp, err := experiment.Parse("playground.toml", []byte(text))
	if err != nil {
		return Checked{Errors: problems(err)}
	}
	return Checked{Errors: []Problem{}, Experiment: info(exp)}
}

// info is what the page needs to know of exp.
func info(exp *experiment.Experiment) *Info {
	in := &Info{Name: exp.Name, Description: exp.Description, Seed: exp.Model.Seed,
		DurationS: exp.Model.Duration.Seconds(), Knobs: exp.Knobs, Variants: []string{},
		Replications: max(exp.Replications, 1)}
	for _, v := range exp.Variants {
		in.Variants = append(in.Variants, v.Name)
	}
	if sw := exp.Sweep; sw != nil {
		cells := len(sw.X.Values) * max(len(sw.Variants), 1)
		if sw.Y != nil {
			cells *= len(sw.Y.Values)
		}
		in.Sweep = &SweepInfo{Metric: sw.Metric.Name(), Cells: cells}
	}
	in.GameDay = gameDayInfo(exp)
	return in
}

// problems turns a Parse error into positioned problems.
func problems(err error) []Problem {
	var l experiment.ErrorList
	if errors.As(err, &l) {
		out := make([]Problem, 0, len(l))
		for _, e := range l {
			out = append(out, Problem{Line: e.Line, Col: e.Col, Key: e.Key, Msg: e.Msg})
		}
		return out
	}
	return []Problem{{Line: 1, Col: 1, Msg: err.Error()}}
}

// Execute runs text with the seed (decimal; "" for the file's) and the
// overrides in setJSON ({"path": value}, "" or "{}" for none), as
// run.Execute would: the same summary.json, the figures as SVG.
func Execute(text, seed, setJSON string, progress func(pct int)) Ran {
	return ExecuteWith(text, seed, setJSON, Hooks{Progress: progress})
}

// Hooks are what a caller of ExecuteWith hears while a run goes on. Every
// field may be nil; each is called on ExecuteWith's goroutine.
type Hooks struct {
	// Progress gets the share of simulated time done, 0-100, when it changes.
	Progress func(pct int)
	// Stage is told when each stage ends: "parsed", then run.Options.Observe's
	// stages ("live" while simulating a large run, "simulated", "figure",
	// "summary", "figure"...); the page marks them on its performance
	// timeline.
	Stage func(name string)
	// Figure gets each figure as soon as it is drawn, the first one
	// (overview.svg) before the others are drawn.
	Figure func(Figure)
	// Live, if not nil, gets the overview drawn while a large run is still
	// being simulated (run.Options.LiveFigures): at 20 % and 50 % of the
	// simulated time, titled with how far the run has got.
	Live func(Figure)
}

// ExecuteWith is Execute, telling h of the run's progress, its stages and
// each figure as soon as it is drawn.
func ExecuteWith(text, seed, setJSON string, h Hooks) Ran {
	progress := h.Progress
	start := time.Now()
	exp, err := experiment.Parse("playground.toml", []byte(text))
	if err != nil {
		return Ran{Errors: problems(err), Error: "the file is not valid"}
	}
	h.stage("parsed")
	opt := run.Options{Budget: PageBudget(), Observe: h.observe, LiveFigures: h.Live != nil}
	if seed != "" {
		s, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return Ran{Error: fmt.Sprintf("seed %q: want a whole number >= 0", seed)}
		}
		opt.Seed = &s
	}
	if exp, err = withSettings(exp, setJSON); err != nil {
		return Ran{Error: err.Error()}
	}
	if progress != nil {
		last := -1
		opt.Progress = func(now, end time.Duration) {
			if pct := int(100 * now / max(end, 1)); pct != last {
				last = pct
				progress(pct)
			}
		}
	}
	mem := &output.Memory{}
	ran, err := run.Execute(exp, opt, mem)
	if err != nil {
		return Ran{Error: err.Error()}
	}
	out := Ran{Seed: ran.Result.Seed, Summary: string(mem.Data(run.SummaryFile)), Warnings: ran.Warnings, WallMS: time.Since(start).Milliseconds()}
	for _, f := range mem.Figures {
		out.Figures = append(out.Figures, Figure{File: f.File, SVG: string(f.SVG)})
	}
	return out
}

func (h Hooks) stage(name string) {
	if h.Stage != nil {
		h.Stage(name)
	}
}

// observe passes run.Options.Observe's news on to h.
func (h Hooks) observe(stage string, f *output.MemoryFigure) {
	h.stage(stage)
	switch {
	case f == nil:
	case stage == "live":
		if h.Live != nil {
			h.Live(Figure{File: f.File, SVG: string(f.SVG)})
		}
	case h.Figure != nil:
		h.Figure(Figure{File: f.File, SVG: string(f.SVG)})
	}
}

// withSettings returns exp with the overrides in setJSON applied (the
// page's knobs), read again by the strict reader.
func withSettings(exp *experiment.Experiment, setJSON string) (*experiment.Experiment, error) {
	if setJSON == "" || setJSON == "{}" {
		return exp, nil
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(setJSON), &raw); err != nil {
		return nil, fmt.Errorf("knob settings: %w", err)
	}
	set := make(map[string]any, len(raw))
	for k, v := range raw {
		set[k] = fromJSON(v)
	}
	cfg, err := exp.With(set)
	if err != nil {
		return nil, fmt.Errorf("knob settings: %w", err)
	}
	x := *exp
	x.Model = cfg
	return &x, nil
}

// fromJSON converts a decoded JSON value to what the TOML decoder gives:
// whole numbers become int64.
func fromJSON(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = fromJSON(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = fromJSON(e)
		}
		return a
	}
	return v
}
