package gameday

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/runner"
)

// storm is a small retry storm game day: a 5 s latency spike at 20 s
// locks a retrying client in; cutting the retries ends it.
const storm = `schema = 1
[experiment]
name = "storm"
description = """a storm
[[action]]
in a string"""
duration = "90s"
warmup = "5s"
[[client]]
name = "users"
target = "api"
rate = 800
deadline = "1s"
timeout = "100ms"
retry = { attempts = 3, backoff = "none" }
[[service]]
name = "api"
workers = 10
queue_capacity = 2000
service_time = { dist = "exponential", mean = "10ms" }
[[fault]]
kind = "latency"
target = "api"
start = "20s"
duration = "5s"
multiply = 5
label = "api slow"

# The reference answer.
[[action]]
at = "40s"
label = "cut"
set = { "client.users.retry.attempts" = 1 }

[gameday]
runbook = "# storm"
  [[gameday.move]]
  label = "Cut retries"
  set = { "client.users.retry.attempts" = 1 }
  [[gameday.move]]
  label = "Shed \"a fifth\""
  kind = "shed"
  target = "users"
  share = 0.2
  [[gameday.move]]
  label = "Stop shedding"
  kind = "shed"
  target = "users"
  share = 0
`

func parse(t *testing.T, text string) *experiment.Experiment {
	t.Helper()
	e, err := experiment.Parse("storm.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestWithMoves(t *testing.T) {
	exp := parse(t, storm)
	out, err := WithMoves([]byte(storm), exp, []Played{{1, 50000}, {0, 30500}, {1, 30500}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "at = \"40s\"") || !strings.Contains(s, "in a string") {
		t.Fatalf("the reference was not removed alone:\n%s", s)
	}
	want := "[[action]]\nat = \"30500ms\"\nlabel = \"Cut retries\"\nset = { \"client.users.retry.attempts\" = 1 }\n\n" +
		"[[action]]\nat = \"30500ms\"\nlabel = \"Shed \\\"a fifth\\\"\"\nkind = \"shed\"\ntarget = \"users\"\nshare = 0.2\n\n" +
		"[[action]]\nat = \"50000ms\"\nlabel = \"Shed \\\"a fifth\\\"\"\nkind = \"shed\"\ntarget = \"users\"\nshare = 0.2\n"
	if !strings.HasSuffix(s, want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", s, want)
	}
	x := parse(t, s)
	if len(x.Model.Actions) != 3 || x.Model.Actions[2].At != 50*time.Second || x.Model.Actions[1].Label != `Shed "a fifth"` {
		t.Errorf("actions %+v", x.Model.Actions)
	}
	// No moves: the file without its reference answer.
	none, err := WithMoves([]byte(storm), exp, nil)
	if err != nil || len(parse(t, string(none)).Model.Actions) != 0 {
		t.Errorf("no moves: %v", err)
	}
	// Rewriting the rewritten file gives the same text.
	again, err := WithMoves(out, x, []Played{{1, 50000}, {0, 30500}, {1, 30500}})
	if err != nil || string(again) != s {
		t.Errorf("not idempotent: %v\n%s", err, again)
	}
}

func TestMoves(t *testing.T) {
	ms := Moves(parse(t, storm))
	if len(ms) != 3 || ms[1].Label != `Shed "a fifth"` || ms[1].TOML != "kind = \"shed\"\ntarget = \"users\"\nshare = 0.2\n" || len(ms[0].Actions) != 1 {
		t.Errorf("moves %+v", ms)
	}
	if Moves(parse(t, storm[:strings.Index(storm, "[gameday]")])) != nil {
		t.Error("a file without [gameday] has moves")
	}
}

func TestWithMovesRefuses(t *testing.T) {
	exp := parse(t, storm)
	many := make([]Played, MaxPlayed+1)
	for i := range many {
		many[i] = Played{0, 1000}
	}
	for _, c := range []struct {
		name  string
		moves []Played
		want  string
	}{
		{"unknown move", []Played{{3, 1000}}, "no move 3"},
		{"negative move", []Played{{-1, 1000}}, "no move -1"},
		{"at zero", []Played{{0, 0}}, "strictly inside the run"},
		{"at the end", []Played{{0, 90000}}, "strictly inside the run"},
		{"far", []Played{{0, 1 << 62}}, "strictly inside the run"},
		{"too many", many, "at most 200"},
	} {
		if _, err := WithMoves([]byte(storm), exp, c.moves); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Actions as an inline array cannot be rewritten.
	inline := strings.Replace(storm, "[[action]]\nat = \"40s\"\nlabel = \"cut\"\nset = { \"client.users.retry.attempts\" = 1 }\n",
		"", 1)
	inline = strings.Replace(inline, "schema = 1\n", "schema = 1\naction = [{ at = \"40s\", set = { \"client.users.retry.attempts\" = 1 } }]\n", 1)
	if _, err := WithMoves([]byte(inline), parse(t, inline), []Played{{0, 1000}}); err == nil || !strings.Contains(err.Error(), "cannot be rewritten safely") {
		t.Errorf("inline actions: %v", err)
	}
	plain := storm[:strings.Index(storm, "[gameday]")]
	if _, err := WithMoves([]byte(plain), parse(t, plain), nil); err == nil || !strings.Contains(err.Error(), "no [gameday]") {
		t.Errorf("no game day: %v", err)
	}
}

// TestWithoutActions: brackets inside values and strings are not headers.
func TestWithoutActions(t *testing.T) {
	src := "a = [\n[1],\n]\n[[action]]\nat = \"1s\"\n[x]\ns = '''\n[[action]]\n'''\nt = \"[[action]] \\\" [\"\n[[ action ]] # c\nat = \"2s\"\n[action.y]\nz = 1\n[[\"q\"]]\nw = 1\n"
	want := "a = [\n[1],\n]\n[x]\ns = '''\n[[action]]\n'''\nt = \"[[action]] \\\" [\"\n[[\"q\"]]\nw = 1\n"
	if got := string(withoutActions([]byte(src))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestEvaluate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the game day several times")
	}
	opt := run.Options{Budget: runner.DefaultBudget}
	// Shed at 30 s (does not end the storm), cut retries at 40 s (ends
	// it, but the shed requests keep goodput under the threshold), stop
	// shedding at 50 s: mitigation is timed from the last, detection from
	// the first alert at or after the fault.
	moves := []Played{{0, 40000}, {2, 50000}, {1, 30000}}
	s, err := Evaluate(context.Background(), []byte(storm), moves, []time.Duration{5 * time.Second, 32 * time.Second, 26 * time.Second}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict.Nothing != "locked_in" || s.Verdict.Reference != "recovered" || s.Verdict.Team != "recovered" || !s.Recovered {
		t.Fatalf("verdicts %+v", s.Verdict)
	}
	if s.DetectS == nil || *s.DetectS != 6 {
		t.Errorf("detect %v, want 6 s", s.DetectS)
	}
	if s.MitigateS == nil || *s.MitigateS != 30 {
		t.Errorf("mitigate %v, want 30 s", s.MitigateS)
	}
	if s.Lost.Nothing <= s.Lost.Team || s.LostVsNothing != s.Lost.Team-s.Lost.Nothing || s.LostVsReference != s.Lost.Team-s.Lost.Reference {
		t.Errorf("lost %+v vs nothing %d vs reference %d", s.Lost, s.LostVsNothing, s.LostVsReference)
	}
	if !reflect.DeepEqual(s.Reference, []ReferenceMove{{"cut", 40}}) {
		t.Errorf("reference %+v", s.Reference)
	}
	// Shedding alone does not recover: no mitigation time.
	s, err = Evaluate(context.Background(), []byte(storm), []Played{{1, 30000}}, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Recovered || s.MitigateS != nil || s.DetectS != nil {
		t.Errorf("shedding alone: %+v", s)
	}
}

// TestEvaluateBudget: the whole plan is checked before the first run.
func TestEvaluateBudget(t *testing.T) {
	opt := run.Options{Budget: runner.Budget{MaxEvents: 1e6}}
	_, err := Evaluate(context.Background(), []byte(storm), []Played{{0, 40000}}, nil, opt)
	if !errors.Is(err, runner.ErrBudget) {
		t.Errorf("got %v, want a budget error", err)
	}
}

func TestFirstRecovering(t *testing.T) {
	for n := 1; n <= 40; n++ {
		for first := 0; first < n; first++ {
			calls := 0
			k, err := firstRecovering(n, func(k int) (bool, error) { calls++; return k >= first, nil })
			if err != nil || k != first || calls > prefixRuns(n) {
				t.Fatalf("n %d first %d: got %d after %d calls (bound %d)", n, first, k, calls, prefixRuns(n))
			}
		}
	}
}

// FuzzWithMoves: whatever the file and the move, WithMoves does not
// panic, and what it writes reads back with the move as its only action
// and rewrites to itself.
func FuzzWithMoves(f *testing.F) {
	f.Add(storm, 0, int64(30000))
	f.Add(strings.Replace(storm, "[[action]]", "[[ action ]] # x", 1), 1, int64(1))
	f.Add(strings.Replace(storm, "# The reference answer.", "s = '''\n[[action]]\n'''", 1), 2, int64(89999))
	f.Fuzz(func(t *testing.T, text string, move int, at int64) {
		exp, err := experiment.Parse("f.toml", []byte(text))
		if err != nil || exp.GameDay == nil {
			return
		}
		moves := []Played{{move, at}}
		out, err := WithMoves([]byte(text), exp, moves)
		if err != nil {
			return
		}
		x, err := experiment.Parse("f.toml", out)
		if err != nil {
			t.Fatalf("written file does not parse: %v", err)
		}
		if !reflect.DeepEqual(x.Model.Actions, actions(exp, moves)) {
			t.Fatalf("written file's actions %+v", x.Model.Actions)
		}
		again, err := WithMoves(out, x, moves)
		if err != nil || string(again) != string(out) {
			t.Fatalf("rewriting the written file: %v\n%s\n---\n%s", err, out, again)
		}
	})
}
