package experiment

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

// GameDay is the [gameday] table: a live incident a room plays in the
// page, choosing moves while the run goes on. The file's own [[action]]
// blocks are the game day's reference answer (ressim run runs it); run,
// compare and sweep otherwise ignore the table.
type GameDay struct {
	// Runbook is the inline runbook, markdown; RunbookFile the runbook's
	// file instead, a relative slash-separated path below the experiment
	// file's folder (the same rules as [alerts] rules; the loader does
	// not open it). At most one is set.
	Runbook, RunbookFile string
	// Fault is the index in Model.Faults of the fault that starts the
	// incident: [gameday].fault's label, or the first fault.
	Fault int
	// Moves are the [[gameday.move]] blocks, in file order.
	Moves []Move
}

// Move is one [[gameday.move]]: a button of the game day, and the
// action it takes when pressed.
type Move struct {
	// Label is the button's text; Help an optional one-line hint.
	Label, Help string
	// Actions are what the move does, read as an [[action]] without at
	// (At 0, no label): one action, or one per path of a set.
	Actions []topology.ActionConfig
	// Body is the move's action as TOML lines (its set, or its kind and
	// that kind's keys), each ending in a newline, for writing the move
	// as an [[action]] block.
	Body string
}

// Bounds on a [gameday] table.
const (
	// MaxMoves bounds the [[gameday.move]] blocks.
	MaxMoves = 20
	// MaxRunbook bounds an inline runbook, in bytes (64 KiB).
	MaxRunbook = 64 << 10
	// MaxMoveText bounds a move's label and help, in bytes.
	MaxMoveText = 200
)

// gameDayKeys and moveHead are the keys of [gameday] and a move's keys
// besides its action's.
var (
	gameDayKeys = []string{"runbook", "runbook_file", "fault", "move"}
	moveHead    = []string{"label", "help"}
)

// gameDay reads the [gameday] table. base, if not nil, is the document
// without its actions, against which a move's set is checked.
func (r *reader) gameDay(root *table, e *Experiment, base map[string]any) *GameDay {
	t, ok := root.sub("gameday", false)
	if !ok {
		return nil
	}
	g := &GameDay{}
	if s, ok := t.str("runbook", false); ok {
		if len(s) > MaxRunbook {
			r.errorf(t.key("runbook"), "the runbook is %d bytes, more than %d (64 KiB): put it in a file", len(s), MaxRunbook)
		}
		g.Runbook = s
	}
	if s, ok := t.str("runbook_file", false); ok {
		if msg := badPath("runbook_file", s); msg != "" {
			r.errorf(t.key("runbook_file"), "%s", msg)
		}
		g.RunbookFile = s
		if t.has("runbook") {
			r.errorf(t.key("runbook_file"), "a game day has runbook (inline markdown) or runbook_file, not both")
		}
	}
	if _, declared := e.doc["fault"]; !declared {
		r.errorf(t.path, "a game day needs a [[fault]]: the incident starts with it")
	}
	if f, ok := t.str("fault", false); ok {
		g.Fault = -1
		for i, fc := range e.Model.Faults {
			if fc.ReportLabel() == f {
				g.Fault = i
				break
			}
		}
		if g.Fault < 0 {
			if len(e.Model.Faults) > 0 {
				r.errorf(t.key("fault"), "no [[fault]] labelled %q; labels: %s", f, strings.Join(faultLabels(e), ", "))
			}
			g.Fault = 0
		}
	}
	moves := t.tables("move")
	switch {
	case len(moves) == 0 && !t.has("move"):
		r.errorf(t.path, "a game day needs at least one [[gameday.move]] (label and an action)")
	case len(moves) > MaxMoves:
		r.errorf(join(t.key("move"), fmt.Sprint(MaxMoves)), "at most %d moves, got %d", MaxMoves, len(moves))
		moves = moves[:MaxMoves]
	}
	seen := map[string]bool{}
	for _, mt := range moves {
		if mv, ok := r.move(mt, e, base, seen); ok {
			g.Moves = append(g.Moves, mv)
		}
	}
	t.done(gameDayKeys...)
	return g
}

// move reads one [[gameday.move]]: label, help, and an action body read
// exactly as an [[action]]'s.
func (r *reader) move(t *table, e *Experiment, base map[string]any, seen map[string]bool) (Move, bool) {
	t.anyKeys = append(append([]string{}, moveHead...), actionBodyKeys...)
	var mv Move
	ok := true
	mv.Label, ok = t.str("label", true)
	if ok {
		if msg := badMoveText(mv.Label); msg != "" {
			r.errorf(t.key("label"), "label %s", msg)
			ok = false
		} else if seen[mv.Label] {
			r.errorf(t.key("label"), "two moves are labelled %q: each button needs its own", mv.Label)
			ok = false
		}
		seen[mv.Label] = true
	}
	if h, hok := t.str("help", false); hok {
		if msg := badMoveText(h); msg != "" && h != "" {
			r.errorf(t.key("help"), "help %s", msg)
			ok = false
		}
		mv.Help = h
	}
	if t.has("at") {
		t.get("at")
		r.errorf(t.key("at"), "a move has no at: the players choose when to make it (the file's [[action]] blocks are the reference answer)")
		ok = false
	}
	m := e.Model
	m.Actions = nil
	acts, aok := r.actionBody(t, &m, base, moveHead)
	if !aok || !ok {
		return mv, false
	}
	body, err := actionBodyTOML(t.m)
	if err != nil {
		r.errorf(t.path, "the move cannot be written as an [[action]]: %v", err)
		return mv, false
	}
	mv.Actions, mv.Body = acts, body
	return mv, true
}

// badMoveText says why s cannot be a move's label or help, or "".
func badMoveText(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "must not be empty"
	case len(s) > MaxMoveText:
		return fmt.Sprintf("is %d bytes, more than %d", len(s), MaxMoveText)
	case strings.ContainsAny(s, "\n\r\x00"):
		return "must be one line"
	}
	return ""
}
