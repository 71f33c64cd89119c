package playground

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/compare"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/sweep"
)

// File is one data file of a comparison or a sweep (compare.json,
// sweep.md, ...), byte for byte as the CLI writes it.
type File struct {
	File string `json:"file"`
	Text string `json:"text"`
}

// VerdictCount is how many replications of a variant ended with a
// verdict on the first fault.
type VerdictCount struct {
	Verdict string `json:"verdict"`
	Count   int    `json:"count"`
}

// ArmResult is the page's verdict on one variant of a comparison.
type ArmResult struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Verdicts count the first fault's verdicts over the replications,
	// in the order locked_in, relapsed, recovered, unaffected, others.
	Verdicts []VerdictCount `json:"verdicts"`
	// LockedIn of Replications stayed locked in (or relapsed).
	LockedIn     int `json:"locked_in"`
	Replications int `json:"replications"`
	// Expectations are the file's [[expect]] lines on this variant, in
	// ressim compare's words.
	Expectations []Expectation `json:"expectations,omitempty"`
}

// Expectation is one checked [[expect]].
type Expectation struct {
	Text string `json:"text"`
	OK   bool   `json:"ok"`
}

// Batched is compare's and sweep's answer: the CLI's files and figures,
// or what refused or stopped the batch.
type Batched struct {
	Errors []Problem `json:"errors,omitempty"`
	// Error refused the batch; Stopped ended it early (the budget), with
	// the outputs of the whole replications that finished.
	Error        string      `json:"error,omitempty"`
	Stopped      string      `json:"stopped,omitempty"`
	Seed         uint64      `json:"seed"`
	Replications int         `json:"replications"`
	Runs         int         `json:"runs"`
	Arms         []ArmResult `json:"arms,omitempty"`
	Files        []File      `json:"files,omitempty"`
	Figures      []Figure    `json:"figures,omitempty"`
	Warnings     []string    `json:"warnings,omitempty"`
	WallMS       int64       `json:"wall_ms"`
}

// Compare runs text's base and every [[variant]] like ressim compare
// (one job: the results do not depend on it), with the seed and the
// number of replications (decimal; "" for the file's). Knob settings do
// not apply: the comparison is the file's. progress gets the runs done
// and their total.
func Compare(text, seed, reps string, progress func(done, total int)) Batched {
	start := time.Now()
	exp, opt, b := batchSetup(text, seed, reps, progress)
	if exp == nil {
		return b
	}
	if len(exp.Variants) == 0 {
		return Batched{Error: "the file has no [[variant]] to compare: add one, or use Run"}
	}
	mem := &output.Memory{}
	out, err := compare.Run(context.Background(), exp, opt, mem)
	if out == nil {
		return Batched{Error: err.Error()}
	}
	b = Batched{Seed: out.Comparison.Seed, Replications: out.Comparison.Replications,
		Runs: out.Comparison.Replications * len(out.Comparison.Arms), Warnings: out.Warnings}
	if err != nil {
		b.Stopped = err.Error()
	}
	b.Arms = arms(out.Comparison, run.CheckExpectations(exp, out.Comparison.ByVariant()))
	b.Files, b.Figures = files(mem.Files), figures(mem.Figures)
	b.WallMS = time.Since(start).Milliseconds()
	return b
}

// Sweep runs text's [sweep] grid like ressim sweep, with the seed and
// replications as Compare takes them.
func Sweep(text, seed, reps string, progress func(done, total int)) Batched {
	start := time.Now()
	exp, opt, b := batchSetup(text, seed, reps, progress)
	if exp == nil {
		return b
	}
	if exp.Sweep == nil {
		return Batched{Error: "the file has no [sweep] table"}
	}
	mem := &output.Memory{}
	out, err := sweep.Run(context.Background(), exp, opt, mem)
	if out == nil {
		return Batched{Error: err.Error()}
	}
	b = Batched{Seed: out.Result.Seed, Replications: out.Result.Replications, Runs: out.Result.Replications * len(out.Stats), Warnings: out.Warnings}
	if err != nil {
		b.Stopped = err.Error()
	}
	b.Files, b.Figures = files(mem.Files), figures(mem.Figures)
	b.WallMS = time.Since(start).Milliseconds()
	return b
}

// batchSetup parses text and the settings; exp is nil when refused, with
// the answer in b.
func batchSetup(text, seed, reps string, progress func(done, total int)) (exp *experiment.Experiment, opt run.CompareOptions, b Batched) {
	exp, err := experiment.Parse("playground.toml", []byte(text))
	if err != nil {
		return nil, opt, Batched{Errors: problems(err), Error: "the file is not valid"}
	}
	opt = run.CompareOptions{Jobs: 1, Budget: PageBudget(), Progress: progress}
	if seed != "" {
		s, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, opt, Batched{Error: fmt.Sprintf("seed %q: want a whole number >= 0", seed)}
		}
		opt.Seed = &s
	}
	if reps != "" {
		n, err := strconv.Atoi(reps)
		if err != nil || n < 1 || n > experiment.MaxReplications {
			return nil, opt, Batched{Error: fmt.Sprintf("replications %q: want a whole number from 1 to %d", reps, experiment.MaxReplications)}
		}
		opt.Replications = n
	}
	return exp, opt, Batched{}
}

// verdictOrder is the order ArmResult.Verdicts lists the verdicts in.
var verdictOrder = []string{"locked_in", "relapsed", "recovered", "unaffected"}

// arms is the verdict on each variant: its first fault's verdicts over
// the replications and its expectations.
func arms(c *compare.Comparison, expectations []run.ExpectResult) []ArmResult {
	res := make([]ArmResult, len(c.Arms))
	for i, a := range c.Arms {
		r := ArmResult{Name: a.Name, Description: a.Description, Replications: c.Replications, Verdicts: []VerdictCount{}}
		counts := map[string]int{}
		var others []string
		for _, rec := range c.Records[i] {
			if len(rec.Faults) == 0 {
				continue
			}
			v := rec.Faults[0].Verdict
			if counts[v] == 0 && !contains(verdictOrder, v) {
				others = append(others, v)
			}
			counts[v]++
			if rec.Headline.LockedIn {
				r.LockedIn++
			}
		}
		for _, v := range append(append([]string{}, verdictOrder...), others...) {
			if counts[v] > 0 {
				r.Verdicts = append(r.Verdicts, VerdictCount{Verdict: v, Count: counts[v]})
			}
		}
		for _, e := range expectations {
			if e.Expect.Variant == a.Name {
				r.Expectations = append(r.Expectations, Expectation{Text: e.String(), OK: e.OK})
			}
		}
		res[i] = r
	}
	return res
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func files(fs []output.MemoryFile) []File {
	out := make([]File, len(fs))
	for i, f := range fs {
		out[i] = File{File: f.File, Text: string(f.Data)}
	}
	return out
}

func figures(fs []output.MemoryFigure) []Figure {
	out := make([]Figure, len(fs))
	for i, f := range fs {
		out[i] = Figure{File: f.File, SVG: string(f.SVG)}
	}
	return out
}
