package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/internal/promtool/promtooltest"
	"github.com/ressim/ressim/playground"
	"github.com/ressim/ressim/sim/alerts"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/gameday"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// gameDays are the bundled game days: the move the reference answer
// plays, and the decoys, moves that alone, made when the reference
// makes its move, do not end the incident.
var gameDays = []struct {
	file   string
	ref    int
	decoys []int
}{
	{"gameday-pool-exhaustion.toml", 0, []int{1, 2, 3, 4}},
	// Moves 5 to 8 are the attempts knob at 1, 2, 3 and 4: 1 is the
	// reference's cut (TestGameDayKnobCut), the others are decoys.
	{"gameday-retry-storm.toml", 0, []int{1, 2, 3, 4, 6, 7, 8}},
	{"gameday-half-dead.toml", 0, []int{1, 2, 3, 4, 5}},
}

// loadGameDay reads a bundled game day and its text.
func loadGameDay(t *testing.T, file string) (*experiment.Experiment, []byte) {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := experiment.Parse(file, text)
	if err != nil {
		t.Fatal(err)
	}
	if exp.GameDay == nil {
		t.Fatalf("%s has no [gameday]", file)
	}
	return exp, text
}

// outcome runs exp's model with acts as its actions and returns the game
// day fault's verdict and the users' requests lost.
func outcome(t *testing.T, exp *experiment.Experiment, acts []topology.ActionConfig) (string, int64) {
	t.Helper()
	cfg := exp.Model
	cfg.Actions = acts
	res, err := runner.Execute(context.Background(), runner.DefaultBudget, cfg, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := run.NewSummary(res)
	return s.Faults[exp.GameDay.Fault].Verdict, gameday.LostRequests(s)
}

// moveAt is move i of exp's game day made at at.
func moveAt(exp *experiment.Experiment, i int, at time.Duration) []topology.ActionConfig {
	var out []topology.ActionConfig
	m := exp.GameDay.Moves[i]
	for _, a := range m.Actions {
		a.At, a.Label = at, m.Label
		out = append(out, a)
	}
	return out
}

// TestGameDaysHaveOneAnswer: in each bundled game day, doing nothing does
// not recover, the reference answer (the file's [[action]] blocks, the
// reference move at its time) does, and no decoy alone does.
func TestGameDaysHaveOneAnswer(t *testing.T) {
	for _, g := range gameDays {
		t.Run(g.file, func(t *testing.T) {
			exp, _ := loadGameDay(t, g.file)
			ref := exp.Model.Actions
			if len(ref) == 0 {
				t.Fatal("no reference answer ([[action]] blocks)")
			}
			at := ref[0].At
			if got := moveAt(exp, g.ref, at); fmt.Sprint(got) != fmt.Sprint(ref) {
				t.Errorf("the reference answer is not move %d at %v:\n%+v\n%+v", g.ref, at, ref, got)
			}
			v, lost := outcome(t, exp, nil)
			t.Logf("nothing: %s, %d lost", v, lost)
			if v == topology.VerdictRecovered {
				t.Errorf("doing nothing recovers")
			}
			v, lost = outcome(t, exp, ref)
			t.Logf("reference: %s, %d lost", v, lost)
			if v != topology.VerdictRecovered {
				t.Errorf("the reference answer gives %s", v)
			}
			for _, d := range g.decoys {
				v, lost := outcome(t, exp, moveAt(exp, d, at))
				t.Logf("decoy %d %q at %v: %s, %d lost", d, exp.GameDay.Moves[d].Label, at, v, lost)
				if v == topology.VerdictRecovered {
					t.Errorf("decoy %q recovers", exp.GameDay.Moves[d].Label)
				}
			}
		})
	}
}

// TestGameDayFileReplays: the file WithMoves writes for a game (the
// reference move and a decoy after it), run by the command line's path
// (run.Execute into a folder, as ressim run does), gives the summary.json
// the page gives for the same text, byte for byte.
func TestGameDayFileReplays(t *testing.T) {
	for _, g := range gameDays {
		t.Run(g.file, func(t *testing.T) {
			exp, text := loadGameDay(t, g.file)
			at := exp.Model.Actions[0].At.Milliseconds()
			moves := []gameday.Played{{Move: g.decoys[0], AtMS: at + 10500}, {Move: g.ref, AtMS: at}}
			file, err := gameday.WithMoves(text, exp, moves)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, g.file)
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			played, err := experiment.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(played.Model.Actions) != 2 || played.Model.Actions[1].At != time.Duration(at+10500)*time.Millisecond {
				t.Fatalf("the written file's actions: %+v", played.Model.Actions)
			}
			out := filepath.Join(dir, "out")
			if _, err := run.Execute(played, run.Options{Budget: runner.DefaultBudget}, output.NewFolder(out, false)); err != nil {
				t.Fatal(err)
			}
			cli, err := os.ReadFile(filepath.Join(out, run.SummaryFile))
			if err != nil {
				t.Fatal(err)
			}
			page := playground.ExecuteWith(string(file), "", "", playground.Hooks{})
			if page.Error != "" {
				t.Fatal(page.Error)
			}
			if page.Summary != string(cli) {
				t.Errorf("the page's summary.json differs from the command line's")
			}
		})
	}
}

// TestGameDayAlerts: as ressim alerts FILE does, each game day's alerts
// fire during its incident as the file's [[expect]] blocks say, and none
// in the run without faults.
func TestGameDayAlerts(t *testing.T) {
	promtooltest.Require(t)
	for _, g := range gameDays {
		t.Run(g.file, func(t *testing.T) {
			exp, _ := loadGameDay(t, g.file)
			if exp.Alerts == nil || len(exp.AlertExpects) < 3 {
				t.Fatalf("[alerts] %+v with %d expectations", exp.Alerts, len(exp.AlertExpects))
			}
			rules := filepath.FromSlash(exp.Alerts.Rules)
			rep, err := alerts.Evaluate(context.Background(), exp.Model, alerts.Options{Rules: rules, EvalInterval: exp.Alerts.EvalInterval, Budget: runner.DefaultBudget})
			if err != nil {
				t.Fatal(err)
			}
			fired := 0
			for _, x := range exp.AlertExpects {
				if msg := alerts.UnknownAlert(x.Alert, rep.Alerts); msg != "" {
					t.Errorf("%s:%d: %s", g.file, x.Where.Line, msg)
				}
				r := alerts.ExpectFrom(g.file, x).Check(rep)
				if !r.OK {
					t.Error(r)
				}
				if x.FiresWithin > 0 {
					fired++
				}
			}
			if fired < 2 {
				t.Errorf("%d alerts are expected to fire, want 2 or 3", fired)
			}
		})
	}
}

// TestGameDayKnobCut: the retry storm's attempts knob at 1 is the
// reference's cut made with the knob: the same actions, and the run
// recovers.
func TestGameDayKnobCut(t *testing.T) {
	exp, _ := loadGameDay(t, "gameday-retry-storm.toml")
	const knobAt1 = 5
	m := exp.GameDay.Moves[knobAt1]
	if m.Label != "Client retry attempts = 1" || m.Knob != "Client retry attempts" {
		t.Fatalf("move %d is %q (knob %q), want the attempts knob at 1", knobAt1, m.Label, m.Knob)
	}
	at := exp.Model.Actions[0].At
	if v, _ := outcome(t, exp, moveAt(exp, knobAt1, at)); v != topology.VerdictRecovered {
		t.Errorf("the knob at 1 attempt gives %s, want recovered", v)
	}
}
