package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/ctmc"
	"github.com/ressim/ressim/sim/run/output"
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
}

func newCtmcCmd() *cobra.Command {
	var (
		outDir string
		bound  float64
	)
	c := &cobra.Command{
		Use:   "ctmc FILE [--truncation EPS] [-o DIR]",
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
geometric count) is listed in the output. See docs/edge.md.`,
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
			p, notes, err := ctmc.FromModel(exp.Model)
			if err != nil {
				return usageError{err}
			}
			r, err := ctmc.Analyze(p, ctmc.Options{Truncation: bound})
			if err != nil {
				if errors.Is(err, ctmc.ErrTooLarge) || errors.Is(err, ctmc.ErrClass) {
					return usageError{err}
				}
				return err
			}
			d := ctmcDoc{Experiment: exp.Name, Approximations: notes, States: r.States, OrbitMax: r.M,
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
			sink := output.NewFolder(outDir, false)
			if err := sink.Open("out/" + exp.Name + "/ctmc"); err != nil {
				return err
			}
			defer sink.Abort()
			if _, err := sink.File("ctmc.json", func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err }); err != nil {
				return err
			}
			if err := sink.Commit(); err != nil {
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
			fmt.Fprintf(w, "mean first passage: low -> high %.6g s, high -> low %.6g s\noutputs in %s/\n", r.LowToHigh, r.HighToLow, sink.OutDir())
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "output directory (default out/<experiment name>/ctmc)")
	c.Flags().Float64Var(&bound, "truncation", ctmc.DefaultTruncation, "the bound on the stationary mass at the orbit's truncation m = M")
	return c
}
