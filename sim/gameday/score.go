package gameday

import (
	"context"
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Score is how a game went, against doing nothing and against the
// reference answer (the file's own [[action]] blocks).
type Score struct {
	// DetectS is the time from the fault's start to the first alert
	// firing at or after it, in seconds; nil if none fired.
	DetectS *float64 `json:"detect_s"`
	// MitigateS is the time from the fault's start to the first move
	// after which the run recovers: the move k of the earliest prefix
	// moves[:k+1] (in time order) whose run's verdict is recovered, in
	// seconds; nil if the team's run does not recover.
	MitigateS *float64 `json:"mitigate_s"`
	// Recovered says the team's run's verdict is recovered.
	Recovered bool `json:"recovered"`
	// Verdict is the game day fault's verdict in each run.
	Verdict Verdicts `json:"verdict"`
	// Lost is the users' requests not answered good in each run: the sum
	// over clients of summary.json's sent minus good.
	Lost Lost `json:"lost"`
	// LostVsNothing and LostVsReference are the team's lost requests
	// minus doing nothing's and minus the reference's: below zero, the
	// team lost fewer.
	LostVsNothing   int64 `json:"lost_vs_nothing"`
	LostVsReference int64 `json:"lost_vs_reference"`
	// Reference is the reference answer, revealed at the end.
	Reference []ReferenceMove `json:"reference"`
}

// Verdicts are one verdict per run of a score.
type Verdicts struct {
	Team      string `json:"team"`
	Nothing   string `json:"nothing"`
	Reference string `json:"reference"`
}

// Lost are the users' requests lost in each run of a score.
type Lost struct {
	Team      int64 `json:"team"`
	Nothing   int64 `json:"nothing"`
	Reference int64 `json:"reference"`
}

// ReferenceMove is one action of the reference answer.
type ReferenceMove struct {
	Label string  `json:"label"`
	AtS   float64 `json:"at_s"`
}

// MaxFiring bounds the alert firing times a score reads.
const MaxFiring = 10000

// MaxPrefixRuns bounds the runs that time the mitigation: with more
// moves than this, the earliest recovering prefix is found by bisection,
// which assumes that once a prefix recovers, longer ones do too.
const MaxPrefixRuns = 8

// Evaluate scores the game moves on the game day text: it runs the
// team's moves (the file WithMoves writes), no moves, the reference
// answer, and the prefixes of the team's moves needed to time the
// mitigation, all under opt.Budget (checked for every run before the
// first, each with its actions: a move may raise the retries) and
// opt.Seed, stopped by ctx. firing are the times, from the
// start of the run, at which the game day's alerts fired in the team's
// run (evaluated by the caller).
func Evaluate(ctx context.Context, text []byte, moves []Played, firing []time.Duration, opt run.Options) (*Score, error) {
	if len(firing) > MaxFiring {
		return nil, fmt.Errorf("%d alert firing times: at most %d", len(firing), MaxFiring)
	}
	exp, err := experiment.Parse("gameday.toml", text)
	if err != nil {
		return nil, err
	}
	if _, err := WithMoves(text, exp, moves); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	base := exp.Model
	if opt.Seed != nil {
		base.Seed = *opt.Seed
	}
	fault := base.Faults[exp.GameDay.Fault]
	order := sorted(moves)
	prefixes := prefixRuns(len(order))
	with := func(acts []topology.ActionConfig) topology.Config {
		cfg := base
		cfg.Actions = acts
		return cfg
	}
	team := actions(exp, order)
	plan := []runner.PlannedRun{{Model: with(team), Times: 1 + prefixes}, {Model: with(nil), Times: 1}, {Model: with(exp.Model.Actions), Times: 1}}
	if err := opt.Budget.Check(plan); err != nil {
		return nil, err
	}
	meter := runner.NewMeter(ctx, opt.Budget, base)
	play := func(acts []topology.ActionConfig) (string, int64, error) {
		res, err := meter.Run(with(acts), runner.Options{})
		if err != nil {
			return "", 0, err
		}
		return outcome(res, exp.GameDay.Fault)
	}
	s := &Score{Reference: []ReferenceMove{}}
	for _, a := range exp.Model.Actions {
		s.Reference = append(s.Reference, ReferenceMove{Label: a.ReportLabel(), AtS: a.At.Seconds()})
	}
	if s.Verdict.Team, s.Lost.Team, err = play(team); err != nil {
		return nil, err
	}
	if s.Verdict.Nothing, s.Lost.Nothing, err = play(nil); err != nil {
		return nil, err
	}
	if s.Verdict.Reference, s.Lost.Reference, err = play(exp.Model.Actions); err != nil {
		return nil, err
	}
	s.LostVsNothing, s.LostVsReference = s.Lost.Team-s.Lost.Nothing, s.Lost.Team-s.Lost.Reference
	s.Recovered = s.Verdict.Team == topology.VerdictRecovered
	for _, f := range firing {
		if f >= fault.Start {
			d := (f - fault.Start).Seconds()
			if s.DetectS == nil || d < *s.DetectS {
				s.DetectS = &d
			}
		}
	}
	if s.Recovered && len(order) > 0 {
		k, err := firstRecovering(len(order), func(k int) (bool, error) {
			v, _, err := play(actions(exp, order[:k+1]))
			return v == topology.VerdictRecovered, err
		})
		if err != nil {
			return nil, err
		}
		d := (ms(order[k].AtMS) - fault.Start).Seconds()
		s.MitigateS = &d
	}
	return s, nil
}

// prefixRuns is the most prefix runs firstRecovering makes for n moves.
func prefixRuns(n int) int {
	if n-1 <= MaxPrefixRuns {
		return max(n-1, 0)
	}
	r := 0
	for m := n - 1; m > 0; m /= 2 {
		r++
	}
	return r
}

// firstRecovering returns the smallest k in [0, n-1] for which recovers
// holds, knowing that it holds for n-1: every k in turn for few moves,
// by bisection for many (prefixRuns).
func firstRecovering(n int, recovers func(k int) (bool, error)) (int, error) {
	if n-1 <= MaxPrefixRuns {
		for k := 0; k < n-1; k++ {
			ok, err := recovers(k)
			if err != nil || ok {
				return k, err
			}
		}
		return n - 1, nil
	}
	lo, hi := 0, n-1 // recovers(hi) holds
	for lo < hi {
		mid := (lo + hi) / 2
		ok, err := recovers(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi, nil
}

// outcome is a run's verdict on fault i and the users' requests it lost,
// read from its summary.json.
func outcome(res *topology.Result, i int) (string, int64, error) {
	s := run.NewSummary(res)
	if i >= len(s.Faults) {
		return "", 0, fmt.Errorf("the run reports %d faults, not fault %d", len(s.Faults), i)
	}
	return s.Faults[i].Verdict, LostRequests(s), nil
}

// LostRequests is the users' requests a run lost: the sum over its
// clients of sent minus good (requests not answered in full within the
// deadline), as summary.json states them.
func LostRequests(s *run.Summary) int64 {
	var n int64
	for _, c := range s.Clients {
		n += int64(c.Sent) - int64(c.Good)
	}
	return n
}
