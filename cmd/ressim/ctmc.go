package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/ctmc"
	"github.com/ressim/ressim/sim/report"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// ctmcDoc is ctmc.json.
type ctmcDoc struct {
	Experiment string `json:"experiment"`
	Model      struct {
		LambdaRPS       float64 `json:"lambda_rps"`
		MuRPS           float64 `json:"mu_rps"`
		Workers         int     `json:"workers"`
		Capacity        int     `json:"capacity"`
		TimeoutRate     float64 `json:"timeout_rate"`
		BackoffRate     float64 `json:"backoff_rate"`
		RetryOnTimeout  float64 `json:"retry_probability_timeout"`
		RetryOnRejected float64 `json:"retry_probability_rejected"`
	} `json:"model"`
	Approximations  []string   `json:"approximations"`
	Solver          string     `json:"solver"`
	States          int        `json:"states"`
	OrbitMax        int        `json:"truncation_m"`
	TruncationError float64    `json:"truncation_error"`
	TruncationBound float64    `json:"truncation_bound"`
	Residual        float64    `json:"residual"`
	MeanN           float64    `json:"mean_n"`
	MeanM           float64    `json:"mean_m"`
	MarginalN       []float64  `json:"marginal_n"`
	MarginalM       []float64  `json:"marginal_m"`
	Modes           ctmc.Modes `json:"modes"`
	LowToHighS      float64    `json:"first_passage_low_to_high_s"`
	HighToLowS      float64    `json:"first_passage_high_to_low_s"`
	// Level is --level's transient analysis, when asked for.
	Level *ctmc.LevelHit `json:"level,omitempty"`
}

// ctmcExactDoc is ctmc.json for a file in the exact class: the chain of
// request sequences (ctmc.ExactParams), which approximates nothing.
type ctmcExactDoc struct {
	Experiment string `json:"experiment"`
	Chain      string `json:"chain"`
	Model      struct {
		LambdaRPS      float64 `json:"lambda_rps"`
		MuRPS          float64 `json:"mu_rps"`
		Workers        int     `json:"workers"`
		Capacity       int     `json:"capacity"`
		TimeoutRate    float64 `json:"timeout_rate"`
		Attempts       int     `json:"attempts"`
		RetryOnTimeout bool    `json:"retry_on_timeout"`
	} `json:"model"`
	Approximations []string       `json:"approximations"`
	Solver         string         `json:"solver"`
	States         int            `json:"states"`
	Move           float64        `json:"last_move"`
	MeanN          float64        `json:"mean_n"`
	MarginalN      []float64      `json:"marginal_n"`
	Modes          ctmc.Modes     `json:"modes"`
	Level          *ctmc.LevelHit `json:"level,omitempty"`
}

func newCtmcCmd() *cobra.Command {
	var (
		outDir string
		bound  float64
		level  int
		within time.Duration
		noPlot bool
		svg    bool
		plan   bool
	)
	c := &cobra.Command{
		Use:   "ctmc FILE [--truncation EPS] [--level N [--within DURATION]] [-o DIR]",
		Short: "Solve a one-service retrying system as a continuous-time Markov chain",
		Long: `Ctmc analyses a file in the class Metafor (HotOS 2025, "Analyzing
Metastable Failures") models as a continuous-time Markov chain: one service
(c workers, queue_capacity K, exponential service_time), one open-loop client
at a constant rate, a timeout, and retries with attempts and a backoff. The
state is (n, m): requests at the service (0..c+K) and in the retry orbit
(0..M). M doubles from 16 until the stationary mass at m = M is below
--truncation (default 1e-12); the chain is refused above 2 000 000 states.

It prints and writes ctmc.json: the truncation and its error, the stationary
marginals of n and m, the low- and high-backlog modes (split at the trough of
the marginal of n+m, or at c+K when it has one peak) with their masses, and
the mean first-passage times between them in seconds. What the chain
approximates (a fixed timeout or backoff taken as exponential, attempts as a
geometric count) is listed in the output.

A file with an exponential timeout (timeout = { dist = "exponential", mean =
... }) and immediate retries (backoff "none") is solved as its exact chain
instead: the sequence of requests at the service, each an orphan or a live
attempt, whose stationary distribution is found by power iteration. It
approximates nothing; its size is the sum over n <= c+K of attempts^n states,
refused above 2 000 000.

--level N adds the probability that the requests at the service are at
least N at some interval end (every --interval of the file) within --within
(default: the file's duration; ends after the warm-up only), from an empty
system, by uniformisation with those states absorbing at the observation
times: the event ressim rare --level N estimates by simulation. See
docs/edge.md.

ctmc runs no simulation, so the budget flags do not apply: its bounds are
the chain's size (above) and the work of the transient analysis. It prints
the chain's size before it solves it; --estimate prints only that and exits.`,
		Example:           `  ressim ctmc experiments/ctmc-small.toml -o out/ctmc`,
		Args:              exactArgs(1),
		ValidArgsFunction: tomlFiles,
		RunE: func(c *cobra.Command, args []string) error {
			exp, err := load(args[0])
			if err != nil {
				return err
			}
			if !(bound > 0 && bound < 1e-3) {
				return usageError{fmt.Errorf("--truncation must be in (0, 1e-3), got %v", bound)}
			}
			var lopt *ctmc.LevelOptions
			if c.Flags().Changed("level") || c.Flags().Changed("within") {
				w := within
				if w == 0 {
					w = exp.Model.Duration
				}
				iv := exp.Model.Interval
				if iv == 0 {
					iv = topology.DefaultInterval
				}
				if level < 1 || !(w > exp.Model.Warmup) {
					return usageError{fmt.Errorf("--level must be at least 1 and --within longer than the warm-up (%v), got %d and %v", exp.Model.Warmup, level, w)}
				}
				lopt = &ctmc.LevelOptions{Level: level, Step: iv.Seconds(), Within: w.Seconds(), Warmup: exp.Model.Warmup.Seconds()}
			}
			sink := output.NewFolder(outDir, svg)
			if ep, eerr := ctmc.ExactFromModel(exp.Model); eerr == nil || errors.Is(eerr, ctmc.ErrTooLarge) {
				if eerr != nil {
					return usageError{eerr}
				}
				fmt.Fprintf(c.OutOrStdout(), "%s: exact chain of %d states (at most %d) (estimate)\n", exp.Name, ep.States(), ctmc.MaxExactStates)
				if plan {
					return nil
				}
				return ctmcExact(c, exp.Name, ep, lopt, sink, !noPlot)
			} else if len(exp.Model.Clients) == 1 && exp.Model.Clients[0].Call.TimeoutExponential {
				// An exponential timeout outside the exact class: say why.
				fmt.Fprintf(c.ErrOrStderr(), "not the exact chain: %v\n", eerr)
			}
			p, notes, err := ctmc.FromModel(exp.Model)
			if err != nil {
				return usageError{err}
			}
			places := p.Capacity + 1 // n runs 0..c+K
			fmt.Fprintf(c.OutOrStdout(), "%s: orbit chain of %d x (M+1) states, M doubling from 16 to the truncation, at most %d states and %d block cells (estimate)\n",
				exp.Name, places, ctmc.MaxStates, ctmc.MaxCells)
			if plan {
				return nil
			}
			var lvl *ctmc.LevelHit
			r, err := ctmc.Analyze(p, ctmc.Options{Truncation: bound})
			if err != nil {
				if errors.Is(err, ctmc.ErrTooLarge) || errors.Is(err, ctmc.ErrClass) {
					return usageError{err}
				}
				return err
			}
			if lopt != nil {
				h, err := r.LevelProbability(c.Context(), *lopt)
				if err != nil {
					return usageError{err}
				}
				lvl = &h
			}
			d := ctmcDoc{Experiment: exp.Name, Level: lvl, Approximations: notes, States: r.States, OrbitMax: r.M,
				TruncationError: r.TruncationError, TruncationBound: r.TruncationBound, Residual: r.Residual,
				MeanN: r.MeanN, MeanM: r.MeanM, MarginalN: r.MarginalN, MarginalM: r.MarginalM, Modes: r.Modes,
				LowToHighS: r.LowToHigh, HighToLowS: r.HighToLow,
				Solver: "block tridiagonal elimination over the orbit levels (exact up to round-off)"}
			if d.Approximations == nil {
				d.Approximations = []string{}
			}
			d.Model.LambdaRPS, d.Model.MuRPS, d.Model.Workers, d.Model.Capacity = p.Lambda, p.Mu, p.Workers, p.Capacity
			d.Model.TimeoutRate, d.Model.BackoffRate, d.Model.RetryOnTimeout, d.Model.RetryOnRejected = p.Theta, p.Nu, p.RetryTimeout, p.RetryRejected
			b, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				return err
			}
			var fig *output.Figure
			if !noPlot {
				f := output.ChartFigure("ctmc.png", ctmcFigure(exp.Name, "n + m, requests at the service and in the retry orbit", r.MarginalBacklog, r.Modes, "approximate orbit chain"))
				fig = &f
			}
			if err := writeCtmc(sink, exp.Name, b, fig); err != nil {
				return err
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s: CTMC of %d states (n 0..%d, orbit m 0..%d), truncation error %.3g < %.3g, residual %.3g\n",
				exp.Name, r.States, p.Capacity, r.M, r.TruncationError, r.TruncationBound, r.Residual)
			for _, n := range notes {
				fmt.Fprintf(w, "  approximation: %s\n", n)
			}
			fmt.Fprintf(w, "mean at the service %.4g, mean in the orbit %.4g\n", r.MeanN, r.MeanM)
			kind := "one peak, split near the capacity c+K"
			if r.Modes.Bimodal {
				kind = "bimodal, split at the trough"
			}
			fmt.Fprintf(w, "modes (%s): low n+m <= %d mass %.6g (peak %d), high mass %.6g (peak %d)\n",
				kind, r.Modes.Threshold, r.Modes.LowMass, r.Modes.LowPeak, r.Modes.HighMass, r.Modes.HighPeak)
			fmt.Fprintf(w, "mean first passage: low -> high %.6g s, high -> low %.6g s\n", r.LowToHigh, r.HighToLow)
			if lvl != nil {
				printLevel(w, *lvl)
			}
			fmt.Fprintf(w, "outputs in %s/\n", sink.OutDir())
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/ctmc)")
	c.Flags().Float64Var(&bound, "truncation", ctmc.DefaultTruncation, "the bound on the stationary mass at the orbit's truncation m = M")
	c.Flags().IntVar(&level, "level", 0, "also compute P(requests at the service >= N at an interval end within --within)")
	c.Flags().DurationVar(&within, "within", 0, "the horizon of --level (default: the file's duration)")
	c.Flags().BoolVar(&noPlot, "no-plots", false, "do not draw ctmc.png")
	c.Flags().BoolVar(&svg, "svg", false, "also write ctmc.svg")
	c.Flags().BoolVar(&plan, "estimate", false, "print the chain's size and its limits, and exit without solving it")
	return c
}

// writeCtmc writes ctmc.json and the figure, all or nothing.
func writeCtmc(sink output.Sink, name string, b []byte, fig *output.Figure) error {
	if err := sink.Open("out/" + name + "/ctmc"); err != nil {
		return err
	}
	defer sink.Abort()
	_, _, err := output.WriteResult(sink, "ctmc.json", func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err }, fig)
	if err != nil {
		return err
	}
	return sink.Commit()
}

func printLevel(w io.Writer, h ctmc.LevelHit) {
	fmt.Fprintf(w, "P(at least %d at the service at an interval end within %gs) = %.6g (error bound %.2g; %d observations every %gs, %d products, %d states)\n",
		h.Level, h.WithinS, h.Probability, h.Bound, h.Observations, h.StepS, h.Products, h.States)
}

// ctmcExact analyses a file in the exact class.
func ctmcExact(c *cobra.Command, name string, p ctmc.ExactParams, lopt *ctmc.LevelOptions, sink output.Sink, plot bool) error {
	w := c.OutOrStdout()
	marg, move, err := p.Stationary(c.Context())
	if err != nil {
		if errors.Is(err, ctmc.ErrCost) {
			return usageError{err}
		}
		return err
	}
	d := ctmcExactDoc{Experiment: name, Chain: "exact: the sequence of requests at the service, each an orphan or a live attempt with retries left",
		Approximations: []string{}, Solver: "power iteration of the uniformised chain to a total-variation move below 1e-13", Move: move, MarginalN: marg}
	d.Model.LambdaRPS, d.Model.MuRPS, d.Model.Workers, d.Model.Capacity = p.Lambda, p.Mu, p.Workers, p.Capacity
	d.Model.TimeoutRate, d.Model.Attempts, d.Model.RetryOnTimeout = p.Theta, p.Attempts, p.RetryTimeout
	d.States = p.States()
	for n, v := range marg {
		d.MeanN += float64(n) * v
	}
	d.Modes = ctmc.ModesOf(marg, p.Capacity)
	if lopt != nil {
		h, err := p.LevelProbability(c.Context(), *lopt)
		if err != nil {
			return usageError{err}
		}
		d.Level = &h
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	var fig *output.Figure
	if plot {
		f := output.ChartFigure("ctmc.png", ctmcFigure(name, "n, requests at the service", marg, d.Modes, "exact chain"))
		fig = &f
	}
	if err := writeCtmc(sink, name, b, fig); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: exact CTMC of %d states (request sequences of length 0..%d, %d attempts), approximates nothing; stationary by power iteration (last move %.2g)\n",
		name, d.States, p.Capacity, p.Attempts, move)
	fmt.Fprintf(w, "mean at the service %.4g; P(full, n = %d) = %.6g\n", d.MeanN, p.Capacity, marg[p.Capacity])
	if d.Level != nil {
		printLevel(w, *d.Level)
	}
	fmt.Fprintf(w, "outputs in %s/\n", sink.OutDir())
	return nil
}

// ctmcFigure is ctmc.png: the stationary distribution over the backlog,
// on a log scale, with the split between the modes.
func ctmcFigure(name, xlabel string, marg []float64, md ctmc.Modes, kind string) report.LogPoints {
	xs := make([]float64, len(marg))
	for i := range xs {
		xs[i] = float64(i)
	}
	split := "modes split (one peak: past the capacity)"
	if md.Bimodal {
		split = "modes split at the trough"
	}
	return report.LogPoints{
		Title: fmt.Sprintf("%s: stationary distribution of the backlog (%s)", name, kind),
		Subtitle: fmt.Sprintf("low mode (backlog <= %d) %s of the time, high mode %s; peaks at %d and %d",
			md.Threshold, massText(md.LowMass), massText(md.HighMass), md.LowPeak, md.HighPeak),
		XLabel: xlabel, YLabel: "stationary probability (log scale)",
		MinY:   1e-300,
		Series: []report.LogSeries{{Name: "P(backlog)", X: xs, Y: marg, Points: len(marg) <= 60, Line: true}},
		Marks:  []report.LogMark{{X: float64(md.Threshold) + 0.5, Label: split}},
	}
}

// massText writes a probability mass to three significant figures, a mass
// near 1 as 1 − its complement (0.99988 would read as 1).
func massText(x float64) string {
	if x > 0.999 {
		return fmt.Sprintf("1 − %.3g", 1-x)
	}
	return fmt.Sprintf("%.3g", x)
}
