package experiment

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// gameDayBase is a small valid game day: a latency fault on a retrying
// client, three moves and a reference answer.
const gameDayBase = `schema = 1
[experiment]
name = "g"
duration = "60s"
[[client]]
name = "users"
target = "api"
rate = 100
retry = { attempts = 3 }
[[service]]
name = "api"
workers = 10
instances = 2
service_time = { dist = "exponential", mean = "10ms" }
[[fault]]
kind = "latency"
target = "api"
start = "10s"
duration = "5s"
multiply = 5
label = "api slow"
[[action]]
at = "20s"
set = { "client.users.retry.attempts" = 1 }
[gameday]
runbook_file = "gameday/g.md"
fault = "api slow"
[[gameday.move]]
label = "Cut retries"
help = "one attempt per request"
set = { "client.users.retry.attempts" = 1 }
[[gameday.move]]
label = "Shed a fifth"
kind = "shed"
target = "users"
share = 0.2
[[gameday.move]]
label = "One instance"
kind = "instances"
target = "api"
count = 1
`

func TestGameDayReads(t *testing.T) {
	e, err := Parse("g.toml", []byte(gameDayBase))
	if err != nil {
		t.Fatal(err)
	}
	g := e.GameDay
	if g == nil || g.RunbookFile != "gameday/g.md" || g.Fault != 0 || len(g.Moves) != 3 {
		t.Fatalf("game day %+v", g)
	}
	if m := g.Moves[0]; m.Label != "Cut retries" || m.Help != "one attempt per request" || len(m.Actions) != 1 || m.Actions[0].Int != 1 {
		t.Errorf("move 0 %+v", m)
	}
	want := []string{
		"set = { \"client.users.retry.attempts\" = 1 }\n",
		"kind = \"shed\"\ntarget = \"users\"\nshare = 0.2\n",
		"kind = \"instances\"\ntarget = \"api\"\ncount = 1\n",
	}
	for i, m := range g.Moves {
		if m.Body != want[i] {
			t.Errorf("move %d body %q, want %q", i, m.Body, want[i])
		}
		// The body, written as an [[action]] at 0, reads back as the move's actions.
		src := strings.Replace(gameDayBase, "[[action]]\nat = \"20s\"\nset = { \"client.users.retry.attempts\" = 1 }\n", "[[action]]\nat = \"0s\"\n"+m.Body, 1)
		x, err := Parse("g.toml", []byte(src))
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if !reflect.DeepEqual(x.Model.Actions, m.Actions) {
			t.Errorf("move %d reads back as %+v, want %+v", i, x.Model.Actions, m.Actions)
		}
	}
	// The game day changes nothing a run sees.
	plain, err := Parse("g.toml", []byte(gameDayBase[:strings.Index(gameDayBase, "[gameday]")]))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain.Model, e.Model) {
		t.Error("[gameday] changed the model")
	}
}

func TestGameDayErrors(t *testing.T) {
	for _, c := range []struct{ name, from, to, want string }{
		{"both runbooks", `runbook_file = "gameday/g.md"`, "runbook_file = \"gameday/g.md\"\nrunbook = \"x\"", "runbook_file: a game day has runbook (inline markdown) or runbook_file, not both"},
		{"escaping runbook", `runbook_file = "gameday/g.md"`, `runbook_file = "../g.md"`, `runbook_file "../g.md": must be a plain path`},
		{"absolute runbook", `runbook_file = "gameday/g.md"`, `runbook_file = "/etc/passwd"`, "not absolute"},
		{"unknown fault", `fault = "api slow"`, `fault = "db slow"`, `gameday.fault: no [[fault]] labelled "db slow"; labels: "api slow"`},
		{"label lines", `label = "Shed a fifth"`, `label = "Shed\na fifth"`, "gameday.move[1].label: label must be one line"},
		{"no label", `label = "Shed a fifth"`, `help = "x"`, `gameday.move[1]: missing required key "label"`},
		{"no action", "kind = \"instances\"\ntarget = \"api\"\ncount = 1\n", "", "gameday.move[2]: an action needs set"},
		{"not mid-run", `set = { "client.users.retry.attempts" = 1 }
[[gameday.move]]`, `set = { "service.api.instances" = 1 }
[[gameday.move]]`, "this setting cannot change mid-run"},
		{"unknown key", `fault = "api slow"`, "fault = \"api slow\"\nrunbok = 1", `gameday.runbok: unknown key "runbok" (did you mean "runbook"?)`},
		{"too many instances", "count = 1", "count = 3", "declares 2 instance(s)"},
	} {
		src := strings.Replace(gameDayBase, c.from, c.to, 1)
		if src == gameDayBase {
			t.Fatalf("%s: replacement did nothing", c.name)
		}
		_, err := Parse("g.toml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	noMoves := gameDayBase[:strings.Index(gameDayBase, "[[gameday.move]]")]
	if _, err := Parse("g.toml", []byte(noMoves)); err == nil || !strings.Contains(err.Error(), "gameday: a game day needs at least one [[gameday.move]]") {
		t.Errorf("no moves: %v", err)
	}
	noFault := strings.Replace(gameDayBase, "[[fault]]\nkind = \"latency\"\ntarget = \"api\"\nstart = \"10s\"\nduration = \"5s\"\nmultiply = 5\nlabel = \"api slow\"\n", "", 1)
	noFault = strings.Replace(noFault, "fault = \"api slow\"\n", "", 1)
	if _, err := Parse("g.toml", []byte(noFault)); err == nil || !strings.Contains(err.Error(), "a game day needs a [[fault]]") {
		t.Errorf("no fault: %v", err)
	}
}

func TestTOMLValue(t *testing.T) {
	for v, want := range map[any]string{
		"a\"b\\c\n\x01": `"a\"b\\c\n\u0001"`, int64(-3): "-3", 2.0: "2.0", 0.25: "0.25", 1e300: "1e+300", true: "true",
	} {
		if got, err := TOMLValue(v); err != nil || got != want {
			t.Errorf("%v: got %s %v, want %s", v, got, err, want)
		}
	}
}

// gameKnob is a [[gameday.knob]] appended to gameDayBase.
const gameKnob = `[[gameday.knob]]
label = "Retry attempts"
help = "attempts per user request"
path = "client.users.retry.attempts"
values = [1, 2, 3]
`

// TestGameDayKnob: a knob is a move per value, after the buttons,
// labelled "LABEL = VALUE", each a set checked as an [[action]]'s.
func TestGameDayKnob(t *testing.T) {
	e, err := Parse("g.toml", []byte(gameDayBase+gameKnob))
	if err != nil {
		t.Fatal(err)
	}
	ms := e.GameDay.Moves
	if len(ms) != 6 {
		t.Fatalf("%d moves, want 3 buttons and 3 knob positions", len(ms))
	}
	for i, v := range []int64{1, 2, 3} {
		m := ms[3+i]
		wantLabel := fmt.Sprintf("Retry attempts = %d", v)
		wantBody := fmt.Sprintf("set = { \"client.users.retry.attempts\" = %d }\n", v)
		if m.Label != wantLabel || m.Knob != "Retry attempts" || m.Value != fmt.Sprint(v) || m.Body != wantBody ||
			len(m.Actions) != 1 || m.Actions[0].Int != int(v) || m.Help != "attempts per user request" {
			t.Errorf("position %d: %+v", i, m)
		}
	}
	if ms[0].Knob != "" {
		t.Errorf("a button has knob %q", ms[0].Knob)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"not mid-run", `path = "client.users.retry.attempts"`, `path = "service.api.instances"`, "gameday.knob[0].values[0]: set \"service.api.instances\": this setting cannot change mid-run"},
		{"bad value", "values = [1, 2, 3]", "values = [1, -2, 3]", "gameday.knob[0].values[1]"},
		{"one value", "values = [1, 2, 3]", "values = [1]", "gameday.knob[0].values: a knob has 2 to 12 values, got 1"},
		{"twice", "values = [1, 2, 3]", "values = [1, 2, 1]", "gameday.knob[0].values[2]: the value 1 is listed twice"},
		{"not an array", "values = [1, 2, 3]", "values = 3", "gameday.knob[0].values: expected an array of values"},
		{"same label as a move", `label = "Retry attempts"`, `label = "Cut retries"`, `two moves or knobs are labelled "Cut retries"`},
		{"no path", `path = "client.users.retry.attempts"` + "\n", "", `gameday.knob[0]: missing required key "path"`},
		{"unknown key", "values = [1, 2, 3]", "values = [1, 2, 3]\nvalue = 1", `unknown key "value"`},
	} {
		src := gameDayBase + strings.Replace(gameKnob, c.from, c.to, 1)
		if _, err := Parse("g.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
