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
	// Moves are the [[gameday.move]] blocks, in file order, then the
	// [[gameday.knob]] blocks' positions: a move per value of each knob,
	// knob by knob, in the order of its values.
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
	// Knob is the label of the [[gameday.knob]] this move is a position
	// of ("" for a button), and Value that position's value as TOML
	// text; Label is then "KNOB = VALUE".
	Knob, Value string
}

// Bounds on a [gameday] table.
const (
	// MaxMoves bounds the [[gameday.move]] blocks.
	MaxMoves = 20
	// MaxRunbook bounds an inline runbook, in bytes (64 KiB).
	MaxRunbook = 64 << 10
	// MaxMoveText bounds a move's label and help, in bytes.
	MaxMoveText = 200
	// MaxGameKnobs bounds the [[gameday.knob]] blocks, and MaxGameKnobValues a
	// knob's values.
	MaxGameKnobs      = 5
	MaxGameKnobValues = 12
)

// gameDayKeys and moveHead are the keys of [gameday] and a move's keys
// besides its action's.
var (
	gameDayKeys  = []string{"runbook", "runbook_file", "fault", "move", "knob"}
	moveHead     = []string{"label", "help"}
	gameKnobKeys = []string{"label", "help", "path", "values"}
)

// gameDay reads the [gameday] table. base, if not nil, is the document
// without its actions, against which a move's set is checked.
func (r *reader) gameDay(root *table, e *Experiment, base map[string]any) *GameDay {
	t, ok := root.sub("gameday", false)
	if !ok {
		return nil
	}
	g := &GameDay{}
	r.runbook(t, g)
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
	knobs := t.tables("knob")
	if len(knobs) > MaxGameKnobs {
		r.errorf(join(t.key("knob"), fmt.Sprint(MaxGameKnobs)), "at most %d knobs, got %d", MaxGameKnobs, len(knobs))
		knobs = knobs[:MaxKnobs]
	}
	for _, kt := range knobs {
		g.Moves = append(g.Moves, r.gameKnob(kt, base, seen)...)
	}
	t.done(gameDayKeys...)
	return g
}

// runbook reads [gameday]'s runbook or runbook_file into g.
func (r *reader) runbook(t *table, g *GameDay) {
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

// gameKnob reads one [[gameday.knob]]: a setting the players turn to one of
// its values mid-run. Each value is a move, "LABEL = VALUE", whose action
// is set = { PATH = VALUE }, read and checked exactly as an [[action]]'s
// set (the path on the mid-run list, the value valid there).
func (r *reader) gameKnob(t *table, base map[string]any, seen map[string]bool) []Move {
	label, help, path, values, ok := r.gameKnobHead(t, seen)
	if !ok {
		return nil
	}
	var out []Move
	texts := map[string]bool{}
	for i, v := range values {
		at := join(t.key("values"), fmt.Sprint(i))
		text, err := TOMLValue(v)
		if err != nil {
			r.errorf(at, "value %d: %v", i, err)
			return nil
		}
		if texts[text] {
			r.errorf(at, "the value %s is listed twice", text)
			return nil
		}
		texts[text] = true
		set := map[string]any{"set": map[string]any{path: v}}
		// Read as the set of an [[action]] would be, by a reader of its
		// own: its problems are then told at this value, not at a
		// set table the file does not have.
		sub := &reader{file: r.file, pos: r.pos}
		acts, aok := sub.actionSet(&table{r: sub, path: at, m: set, used: map[string]bool{}}, base)
		for _, e := range sub.errs {
			r.errorf(at, "%s", e.Msg)
		}
		if !aok || len(sub.errs) > 0 {
			return nil
		}
		body, err := actionBodyTOML(set)
		if err != nil {
			r.errorf(at, "the knob cannot be written as an [[action]]: %v", err)
			return nil
		}
		out = append(out, Move{Label: label + " = " + text, Help: help, Actions: acts, Body: body, Knob: label, Value: text})
	}
	return out
}

// gameKnobHead reads a knob's label, help, path and values; ok is false
// after a problem, told.
func (r *reader) gameKnobHead(t *table, seen map[string]bool) (label, help, path string, values []any, ok bool) {
	t.anyKeys = gameKnobKeys
	defer t.done(gameKnobKeys...)
	label, ok = t.str("label", true)
	if ok {
		if msg := badMoveText(label); msg != "" {
			r.errorf(t.key("label"), "label %s", msg)
			ok = false
		} else if seen[label] {
			r.errorf(t.key("label"), "two moves or knobs are labelled %q: each needs its own", label)
			ok = false
		}
		seen[label] = true
	}
	help, _ = t.str("help", false)
	if msg := badMoveText(help); msg != "" && help != "" {
		r.errorf(t.key("help"), "help %s", msg)
		ok = false
	}
	path, pok := t.str("path", true)
	raw, vok := t.get("values")
	if !vok {
		r.errorf(t.path, "a knob needs values = [ ... ]: the positions the players may choose")
	}
	if !ok || !pok || !vok {
		return label, help, path, nil, false
	}
	values, isArray := raw.([]any)
	switch {
	case !isArray:
		r.errorf(t.key("values"), "expected an array of values, got %s", typeName(raw))
		return label, help, path, nil, false
	case len(values) < 2 || len(values) > MaxGameKnobValues:
		r.errorf(t.key("values"), "a knob has 2 to %d values, got %d", MaxGameKnobValues, len(values))
		return label, help, path, nil, false
	}
	return label, help, path, values, true
}
