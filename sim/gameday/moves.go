package gameday

import (
	"fmt"
	"slices"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// Move is one move of a game day: a [[gameday.move]].
type Move struct {
	// Label is the button's text, Help its one-line hint.
	Label, Help string
	// Actions are what the move does, at time 0 without a label: one
	// action, or one per path of a set (experiment.Move.Actions).
	Actions []topology.ActionConfig
	// TOML is the move's action body as TOML lines, for an [[action]].
	TOML string
}

// Played is one move the players made: an index into the file's moves,
// at a simulated time in whole milliseconds.
type Played struct {
	Move int   `json:"move"`
	AtMS int64 `json:"at_ms"`
}

// MaxPlayed bounds the moves of one game.
const MaxPlayed = 200

// Moves returns exp's game-day moves; nil without a [gameday].
func Moves(exp *experiment.Experiment) []Move {
	if exp.GameDay == nil {
		return nil
	}
	out := make([]Move, len(exp.GameDay.Moves))
	for i, m := range exp.GameDay.Moves {
		out[i] = Move{Label: m.Label, Help: m.Help, Actions: slices.Clone(m.Actions), TOML: m.Body}
	}
	return out
}

// check refuses moves that are not a game of exp: too many, an unknown
// move, or a time not strictly inside the run.
func check(exp *experiment.Experiment, moves []Played) error {
	if exp.GameDay == nil {
		return fmt.Errorf("%s has no [gameday]", exp.Name)
	}
	if len(moves) > MaxPlayed {
		return fmt.Errorf("%d moves: at most %d in one game", len(moves), MaxPlayed)
	}
	n := len(exp.GameDay.Moves)
	for i, p := range moves {
		if p.Move < 0 || p.Move >= n {
			return fmt.Errorf("move %d: no move %d (the game day has %d)", i, p.Move, n)
		}
		if at := ms(p.AtMS); p.AtMS <= 0 || at >= exp.Model.Duration || p.AtMS > int64(experiment.MaxDuration/time.Millisecond) {
			return fmt.Errorf("move %d (%q) at %d ms: a move is made strictly inside the run (0 to %d ms)", i, exp.GameDay.Moves[p.Move].Label, p.AtMS, exp.Model.Duration.Milliseconds())
		}
	}
	return nil
}

// ms converts whole milliseconds to a duration.
func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// sorted returns moves in the order of their times, moves at the same
// time in the order played.
func sorted(moves []Played) []Played {
	out := slices.Clone(moves)
	slices.SortStableFunc(out, func(a, b Played) int {
		switch {
		case a.AtMS < b.AtMS:
			return -1
		case a.AtMS > b.AtMS:
			return 1
		}
		return 0
	})
	return out
}

// actions are the timed actions moves make in exp, in the order WithMoves
// writes them: what the file it writes reads as.
func actions(exp *experiment.Experiment, moves []Played) []topology.ActionConfig {
	var out []topology.ActionConfig
	for _, p := range sorted(moves) {
		m := exp.GameDay.Moves[p.Move]
		for _, a := range m.Actions {
			a.At, a.Label = ms(p.AtMS), m.Label
			out = append(out, a)
		}
	}
	return out
}
