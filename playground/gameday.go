package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/ressim/ressim/experiments"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/gameday"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/topology"
)

// GameDayInfo is what the page needs of a file's [gameday] before the
// game starts (Info.GameDay). The reference answer is not in it.
type GameDayInfo struct {
	// RunbookHTML is the runbook as escaped HTML (gameday.RunbookHTML).
	RunbookHTML string        `json:"runbook_html"`
	Moves       []GameDayMove `json:"moves"`
	// FaultStartS and FaultEndS bound the fault that starts the incident,
	// in seconds of simulated time; FaultEndS is 0 when it lasts past the
	// end of the run.
	FaultStartS float64 `json:"fault_start_s"`
	FaultEndS   float64 `json:"fault_end_s"`
	DurationS   float64 `json:"duration_s"`
	// Rules is the text of the alerting rules [alerts] names, read from
	// the bundled files ("" when there is none there, or no [alerts]);
	// RulesPath is the path [alerts] names ("" without).
	Rules     string `json:"rules"`
	RulesPath string `json:"rules_path"`
}

// GameDayMove is one move of the game day: a button, or one position
// of a knob (Knob is the knob's label, Value the position's value as
// TOML text; the page draws a knob's positions as one control).
type GameDayMove struct {
	Label string `json:"label"`
	Help  string `json:"help"`
	Knob  string `json:"knob,omitempty"`
	Value string `json:"value,omitempty"`
}

// maxBundledRules bounds a rules file read from the bundled files.
const maxBundledRules = 4 << 20

// gameDayInfo is what the page needs of exp's [gameday]; nil without one.
// A runbook_file or a rules path is read from the bundled files
// (experiments.FS()), relative to their root, as the bundled game days
// name theirs; a pasted file's own are beside it, not in the page.
func gameDayInfo(exp *experiment.Experiment) *GameDayInfo {
	g := exp.GameDay
	if g == nil {
		return nil
	}
	f := exp.Model.Faults[g.Fault]
	in := &GameDayInfo{Moves: []GameDayMove{}, FaultStartS: f.Start.Seconds(), DurationS: exp.Model.Duration.Seconds()}
	if f.End < exp.Model.Duration {
		in.FaultEndS = f.End.Seconds()
	}
	for _, m := range g.Moves {
		in.Moves = append(in.Moves, GameDayMove{Label: m.Label, Help: m.Help, Knob: m.Knob, Value: m.Value})
	}
	md := g.Runbook
	if g.RunbookFile != "" {
		if b, ok := bundledFile(g.RunbookFile, gameday.MaxRunbook); ok {
			md = string(b)
		} else {
			md = fmt.Sprintf("The runbook is in %s, beside the experiment file: it is not available in the page.", g.RunbookFile)
		}
	}
	in.RunbookHTML = gameday.RunbookHTML(md)
	if exp.Alerts != nil {
		in.RulesPath = exp.Alerts.Rules
		if b, ok := bundledFile(exp.Alerts.Rules, maxBundledRules); ok {
			in.Rules = string(b)
		}
	}
	return in
}

// bundledFile reads the bundled file at path (slash-separated, below the
// bundled files' root), if there is one of at most limit bytes.
func bundledFile(path string, limit int64) ([]byte, bool) {
	if !fs.ValidPath(path) {
		return nil, false
	}
	st, err := fs.Stat(experiments.FS(), path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > limit {
		return nil, false
	}
	b, err := fs.ReadFile(experiments.FS(), path)
	return b, err == nil
}

// Played is play's answer: the game's file, its run, and what the page
// draws and evaluates its alerts on.
type Played struct {
	Errors []Problem `json:"errors,omitempty"`
	Error  string    `json:"error,omitempty"`
	// File is the game day's text with the moves as its [[action]]
	// blocks (gameday.WithMoves): what the page downloads.
	File string `json:"file"`
	// Summary is summary.json of running exactly File, byte for byte as
	// ressim run writes it.
	Summary string `json:"summary"`
	// Series is the run's time series for the page's charts.
	Series GameSeries `json:"series"`
	// Alerts are the game day's alert rules ([alerts], read from the
	// bundled files) evaluated on the run's exported series with the
	// page's PromQL subset (gameAlerts): every instance that was ever
	// active, with its spans; empty without rules.
	Alerts []GameAlert `json:"alerts"`
	// AlertsNote says why there are no alerts when the file names rules
	// the page does not have ("" otherwise).
	AlertsNote string `json:"alerts_note,omitempty"`
	// Events are the faults' starts and ends and the moves, in time
	// order.
	Events []GameEvent `json:"events"`
	// Verdict is the game day fault's verdict in this run.
	Verdict string `json:"verdict"`
}

// GameSeries are per-interval values of a run, one per interval, at the
// interval's end (t_s, seconds of simulated time). offered_rps and
// goodput_rps are summed over every client (the users: a game day's
// clients are its users), in_flight is every client's user requests
// unanswered at the interval's end, and p99_s the worst (largest) of the
// clients' 99th percentile latency of the requests answered in the
// interval, null when none was answered.
type GameSeries struct {
	TS         []Num `json:"t_s"`
	OfferedRPS []Num `json:"offered_rps"`
	GoodputRPS []Num `json:"goodput_rps"`
	P99S       []Num `json:"p99_s"`
	InFlight   []Num `json:"in_flight"`
}

// Num is a number in JSON; NaN and infinities, which JSON cannot hold,
// are null.
type Num float64

// MarshalJSON writes n, or null.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// GameEvent is one event of a game on the page's timeline: kind is
// "fault_start", "fault_end" or "move"; label the fault's or the move's.
type GameEvent struct {
	TS    float64 `json:"t_s"`
	Kind  string  `json:"kind"`
	Label string  `json:"label"`
}

// maxMovesJSON and maxFiringJSON bound the JSON arguments.
const (
	maxMovesJSON  = 64 << 10
	maxFiringJSON = 512 << 10
)

// Play runs the game day text with the moves in movesJSON
// ([{"move":0,"at_ms":73500}], "" for none) and the seed (decimal, ""
// for the file's): it writes the moves into the file (gameday.WithMoves)
// and runs exactly that file as ressim run does (recording the
// per-interval histograms, as --openmetrics does, for the alert rules).
func Play(text, movesJSON, seed string) Played {
	exp, moves, s, out := playInputs(text, movesJSON, seed)
	if out != nil {
		return Played{Errors: out.Errors, Error: out.Error}
	}
	file, err := gameday.WithMoves([]byte(text), exp, moves)
	if err != nil {
		return Played{Error: err.Error()}
	}
	played, err := experiment.Parse("playground.toml", file)
	if err != nil {
		return Played{Errors: problems(err), Error: "the file with the moves is not valid"}
	}
	// The command line's path: run.Execute into a sink that is not
	// interactive writes what ressim run writes; HistogramSeries is
	// what --openmetrics asks for.
	sink := &dataSink{}
	ran, err := run.Execute(played, run.Options{Seed: s, Budget: PageBudget(), HistogramSeries: true}, sink)
	if err != nil {
		return Played{Error: err.Error()}
	}
	p := Played{File: string(file), Summary: string(sink.Data(run.SummaryFile)), Alerts: []GameAlert{},
		Series: gameSeries(ran.Result), Events: gameEvents(&played.Model)}
	if a := exp.Alerts; a != nil {
		rules, ok := bundledFile(a.Rules, maxBundledRules)
		if !ok {
			p.AlertsNote = fmt.Sprintf("the alert rules %s are beside the file, not in the page: no alerts", a.Rules)
		} else if p.Alerts, err = gameAlerts(rules, ran.Result, a.EvalInterval); err != nil {
			return Played{Error: err.Error()}
		}
	}
	if i := exp.GameDay.Fault; i < len(ran.Result.Faults) {
		p.Verdict = ran.Result.Faults[i].Recovery.Verdict
	}
	return p
}

// dataSink keeps a run's data files in memory as a Folder writes them:
// not interactive, so run.Execute takes the command line's path.
type dataSink struct{ output.Memory }

// Interactive is false: the outputs are those of ressim run.
func (*dataSink) Interactive() bool { return false }

// playInputs reads play's and score's arguments: the file (which must
// have a [gameday]), the moves and the seed; out, if not nil, is the
// problem to answer with.
func playInputs(text, movesJSON, seed string) (*experiment.Experiment, []gameday.Played, *uint64, *Played) {
	exp, err := experiment.Parse("playground.toml", []byte(text))
	if err != nil {
		return nil, nil, nil, &Played{Errors: problems(err), Error: "the file is not valid"}
	}
	if exp.GameDay == nil {
		return nil, nil, nil, &Played{Error: "the file has no [gameday]"}
	}
	var moves []gameday.Played
	if len(movesJSON) > maxMovesJSON {
		return nil, nil, nil, &Played{Error: fmt.Sprintf("moves: %d bytes of JSON, at most %d", len(movesJSON), maxMovesJSON)}
	}
	if movesJSON != "" {
		if err := json.Unmarshal([]byte(movesJSON), &moves); err != nil {
			return nil, nil, nil, &Played{Error: fmt.Sprintf("moves: want [{\"move\": 0, \"at_ms\": 73500}, ...]: %v", err)}
		}
	}
	var s *uint64
	if seed != "" {
		v, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, nil, nil, &Played{Error: fmt.Sprintf("seed %q: want a whole number >= 0", seed)}
		}
		s = &v
	}
	return exp, moves, s, nil
}

// gameSeries reads the page's series from res (see GameSeries).
func gameSeries(res *topology.Result) GameSeries {
	ts := res.Series
	n := ts.Len()
	g := GameSeries{TS: make([]Num, n), OfferedRPS: make([]Num, n), GoodputRPS: make([]Num, n), P99S: make([]Num, n), InFlight: make([]Num, n)}
	good := ts.Find(topology.TotalEntity, topology.TotalGoodput.Name)
	inFlight := ts.Find(topology.TotalEntity, topology.TotalInFlight.Name)
	for i := range n {
		g.TS[i] = Num(time.Duration(ts.End(i)).Seconds())
		g.P99S[i] = Num(math.NaN())
		if good != nil {
			g.GoodputRPS[i] = Num(good.Value(i))
		}
		if inFlight != nil {
			g.InFlight[i] = Num(inFlight.Value(i))
		}
	}
	for _, c := range res.Clients {
		sent := ts.Find(c.Name, topology.ClientSent.Name)
		p99 := ts.Find(c.Name, topology.ClientLatencyP99.Name)
		for i := range n {
			if sent != nil {
				g.OfferedRPS[i] += Num(sent.Value(i))
			}
			if p99 == nil {
				continue
			}
			if v := p99.Value(i) / 1e3; !math.IsNaN(v) && (math.IsNaN(float64(g.P99S[i])) || v > float64(g.P99S[i])) {
				g.P99S[i] = Num(v) // ms to s
			}
		}
	}
	return g
}

// gameEvents are the faults' starts and ends (within the run) and the
// actions (the moves) of cfg, in time order: at the same instant, faults
// before moves, each in file order.
func gameEvents(cfg *topology.Config) []GameEvent {
	out := []GameEvent{}
	for _, f := range cfg.Faults {
		out = append(out, GameEvent{TS: f.Start.Seconds(), Kind: "fault_start", Label: f.ReportLabel()})
		if f.End < cfg.Duration && f.Kind != topology.CacheFlushFault {
			out = append(out, GameEvent{TS: f.End.Seconds(), Kind: "fault_end", Label: f.ReportLabel()})
		}
	}
	for _, a := range cfg.Actions {
		out = append(out, GameEvent{TS: a.At.Seconds(), Kind: "move", Label: a.ReportLabel()})
	}
	slices.SortStableFunc(out, func(a, b GameEvent) int {
		switch {
		case a.TS < b.TS:
			return -1
		case a.TS > b.TS:
			return 1
		case a.Kind != "move" && b.Kind == "move":
			return -1
		case a.Kind == "move" && b.Kind != "move":
			return 1
		}
		return 0
	})
	return out
}

// ScoreResult is score's answer: the score's fields, or what stopped it.
type ScoreResult struct {
	*gameday.Score
	Errors []Problem `json:"errors,omitempty"`
	Error  string    `json:"error,omitempty"`
}

// ScoreGame scores the game movesJSON on the game day text with the
// seed, as gameday.Evaluate does under the page's budget; firingJSON are
// the times, in seconds of simulated time, at which the page's alert
// evaluation saw the game day's alerts fire in the game's run
// ([12.5, 40], "" for none).
func ScoreGame(text, movesJSON, seed, firingJSON string) ScoreResult {
	_, moves, s, out := playInputs(text, movesJSON, seed)
	if out != nil {
		return ScoreResult{Errors: out.Errors, Error: out.Error}
	}
	firing, err := firingTimes(firingJSON)
	if err != nil {
		return ScoreResult{Error: err.Error()}
	}
	score, err := gameday.Evaluate(context.Background(), []byte(text), moves, firing, run.Options{Seed: s, Budget: PageBudget()})
	if err != nil {
		return ScoreResult{Error: err.Error()}
	}
	return ScoreResult{Score: score}
}

// firingTimes reads the alert firing times: a JSON array of seconds,
// each finite, >= 0 and at most experiment.MaxDuration.
func firingTimes(firingJSON string) ([]time.Duration, error) {
	if firingJSON == "" {
		return nil, nil
	}
	if len(firingJSON) > maxFiringJSON {
		return nil, fmt.Errorf("firing: %d bytes of JSON, at most %d", len(firingJSON), maxFiringJSON)
	}
	var secs []float64
	if err := json.Unmarshal([]byte(firingJSON), &secs); err != nil {
		return nil, fmt.Errorf("firing: want [12.5, 40, ...] (seconds): %v", err)
	}
	if len(secs) > gameday.MaxFiring {
		return nil, fmt.Errorf("firing: %d times, at most %d", len(secs), gameday.MaxFiring)
	}
	out := make([]time.Duration, len(secs))
	for i, s := range secs {
		if !(s >= 0 && s <= experiment.MaxDuration.Seconds()) {
			return nil, fmt.Errorf("firing[%d]: %g is not a time in the run (seconds, >= 0)", i, s)
		}
		out[i] = time.Duration(math.Round(s * 1e9))
	}
	return out, nil
}
