package playground

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
)

// TestValidateGameDay: validate tells the page of a bundled game day its
// runbook (from the bundled files, as HTML), moves, fault and rules, and
// not its reference answer; a pasted file's runbook_file is not in the
// page.
func TestValidateGameDay(t *testing.T) {
	text := bundled(t, "gameday-retry-storm.toml")
	c := Validate(text)
	if len(c.Errors) > 0 || c.Experiment == nil || c.Experiment.GameDay == nil {
		t.Fatalf("%+v", c)
	}
	g := c.Experiment.GameDay
	if !strings.HasPrefix(g.RunbookHTML, "<h1>Runbook: ") || len(g.Moves) != 9 || g.Moves[0].Label != "Cut client retries to one attempt" || g.Moves[0].Help == "" {
		t.Errorf("runbook %.40q, moves %+v", g.RunbookHTML, g.Moves)
	}
	// The attempts knob: four positions after the five buttons.
	if k := g.Moves[5]; k.Knob != "Client retry attempts" || k.Value != "1" || k.Label != "Client retry attempts = 1" || g.Moves[8].Value != "4" || g.Moves[4].Knob != "" {
		t.Errorf("knob positions %+v", g.Moves[4:])
	}
	if g.FaultStartS != 60 || g.FaultEndS != 65 || g.DurationS != 300 || g.RulesPath != "alerts/gameday-retry-storm.rules.yml" || !strings.Contains(g.Rules, "alert: RetryStorm") {
		t.Errorf("fault %v-%v of %v, rules %q (%d bytes)", g.FaultStartS, g.FaultEndS, g.DurationS, g.RulesPath, len(g.Rules))
	}
	b, _ := json.Marshal(c)
	if strings.Contains(string(b), "150s") || strings.Contains(string(b), "\"reference") {
		t.Errorf("validate reveals the reference answer: %s", b)
	}
	for _, k := range []string{`"game_day":{`, `"runbook_html":`, `"moves":[{"label":`, `"help":`, `"fault_start_s":60`, `"fault_end_s":65`, `"duration_s":300`, `"rules":`, `"rules_path":`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("validate's JSON lacks %s", k)
		}
	}
	pasted := strings.Replace(text, `runbook_file = "gameday/retry-storm.md"`, `runbook_file = "mine/runbook.md"`, 1)
	pasted = strings.Replace(pasted, `rules = "alerts/gameday-retry-storm.rules.yml"`, `rules = "mine.yml"`, 1)
	g = Validate(pasted).Experiment.GameDay
	if !strings.Contains(g.RunbookHTML, "beside the experiment file") || g.Rules != "" || g.RulesPath != "mine.yml" {
		t.Errorf("pasted: %+v", g)
	}
	inline := strings.Replace(text, `runbook_file = "gameday/retry-storm.md"`, `runbook = "# Mine\n<b>x</b>"`, 1)
	if g = Validate(inline).Experiment.GameDay; g.RunbookHTML != "<h1>Mine</h1>\n<p>&lt;b&gt;x&lt;/b&gt;</p>\n" {
		t.Errorf("inline runbook: %q", g.RunbookHTML)
	}
	if Validate(bundled(t, "mm10.toml")).Experiment.GameDay != nil {
		t.Error("a file without [gameday] has a game day")
	}
}

// TestPlayIsCausalAndReplays: a move at t changes nothing before t (the
// page shows the prefix while it recomputes), and play's summary is
// what the command line writes for play's file, byte for byte.
func TestPlayIsCausalAndReplays(t *testing.T) {
	text := bundled(t, "gameday-retry-storm.toml")
	none := Play(text, "", "")
	if none.Error != "" {
		t.Fatal(none.Error)
	}
	one := Play(text, `[{"move":0,"at_ms":130500}]`, "")
	if one.Error != "" {
		t.Fatal(one.Error)
	}
	if none.Verdict != "locked_in" || one.Verdict != "recovered" {
		t.Errorf("verdicts: nothing %s, cut at 130.5 s %s", none.Verdict, one.Verdict)
	}
	n := len(none.Series.TS)
	if n != 300 || len(one.Series.TS) != n || len(one.Series.GoodputRPS) != n || len(one.Series.P99S) != n || len(one.Series.OfferedRPS) != n || len(one.Series.InFlight) != n {
		t.Fatalf("series lengths %d, %d", n, len(one.Series.TS))
	}
	same, differ := 0, false
	for i := range n {
		a, b := none.Series, one.Series
		eq := a.TS[i] == b.TS[i] && a.GoodputRPS[i] == b.GoodputRPS[i] && a.OfferedRPS[i] == b.OfferedRPS[i] && a.InFlight[i] == b.InFlight[i] && (a.P99S[i] == b.P99S[i] || a.P99S[i] != a.P99S[i] && b.P99S[i] != b.P99S[i])
		if float64(a.TS[i]) <= 130.5 {
			if !eq {
				t.Fatalf("before the move, at %v s, the series differ", a.TS[i])
			}
			same++
		} else if !eq {
			differ = true
		}
	}
	if same != 130 || !differ {
		t.Errorf("%d points before the move are the same; after it they differ: %v", same, differ)
	}
	var ev []string
	for _, e := range one.Events {
		ev = append(ev, e.Kind+" "+e.Label)
	}
	if got := strings.Join(ev, ", "); got != "fault_start api slow x5, fault_end api slow x5, move Cut client retries to one attempt" {
		t.Errorf("events: %s", got)
	}
	// The alerts: the storm's fire in both runs, and the same before the
	// move (evaluations at 15 s: the first after 130.5 s is 135 s).
	if len(none.Alerts) == 0 || len(one.Alerts) == 0 {
		t.Errorf("alerts: %d with no move, %d with the move", len(none.Alerts), len(one.Alerts))
	}
	if a, b := firedBefore(none.Alerts, 130.5), firedBefore(one.Alerts, 130.5); a != b {
		t.Errorf("alerts fired before the move differ: %s / %s", a, b)
	}
	// The command line's path on play's file.
	dir := t.TempDir()
	path := filepath.Join(dir, "game.toml")
	if err := os.WriteFile(path, []byte(one.File), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, err := experiment.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Execute(exp, run.Options{Budget: runner.DefaultBudget}, output.NewFolder(filepath.Join(dir, "out"), false)); err != nil {
		t.Fatal(err)
	}
	cli, err := os.ReadFile(filepath.Join(dir, "out", run.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if one.Summary != string(cli) {
		t.Error("play's summary.json differs from ressim run's on play's file")
	}
	if !strings.Contains(one.File, "at = \"130500ms\"\nlabel = \"Cut client retries to one attempt\"\n") || strings.Contains(one.File, "at = \"150s\"") {
		t.Errorf("play's file does not hold the move alone")
	}
}

func TestPlayRefuses(t *testing.T) {
	text := bundled(t, "gameday-retry-storm.toml")
	for _, c := range []struct{ moves, seed, want string }{
		{`{"move":0}`, "", "moves: want"},
		{`[{"move":9,"at_ms":1000}]`, "", "no move 9"},
		{`[{"move":0,"at_ms":300000}]`, "", "strictly inside the run"},
		{`[]`, "x", `seed "x"`},
		{strings.Repeat(" ", maxMovesJSON+1), "", "at most"},
	} {
		if p := Play(text, c.moves, c.seed); !strings.Contains(p.Error, c.want) {
			t.Errorf("%.30q: %q, want %q", c.moves, p.Error, c.want)
		}
	}
	if p := Play(bundled(t, "mm10.toml"), "", ""); p.Error != "the file has no [gameday]" {
		t.Errorf("no game day: %q", p.Error)
	}
	if p := Play("schema = 2", "", ""); len(p.Errors) == 0 {
		t.Errorf("invalid file: %+v", p)
	}
	for _, f := range []string{`[-1]`, `["x"]`, `[1e300]`, `{}`} {
		if s := ScoreGame(text, "", "", f); !strings.Contains(s.Error, "firing") {
			t.Errorf("firing %s: %q", f, s.Error)
		}
	}
}

// TestScoreGame: the reference move at the reference's time scores as
// the reference, with the times measured from the fault's start.
func TestScoreGame(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs")
	}
	text := bundled(t, "gameday-retry-storm.toml")
	s := ScoreGame(text, `[{"move":0,"at_ms":150000}]`, "", `[30, 105, 140]`)
	if s.Error != "" || s.Score == nil {
		t.Fatalf("%+v", s)
	}
	b, _ := json.Marshal(s)
	for _, k := range []string{`"detect_s":45`, `"mitigate_s":90`, `"recovered":true`,
		`"verdict":{"team":"recovered","nothing":"locked_in","reference":"recovered"}`, `"lost_vs_reference":0`,
		`"reference":[{"label":"Cut client retries to one attempt","at_s":150}]`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("score lacks %s: %s", k, b)
		}
	}
	if s.Lost.Team != s.Lost.Reference || s.LostVsNothing >= 0 {
		t.Errorf("lost %+v, vs nothing %d", s.Lost, s.LostVsNothing)
	}
}

// firedBefore lists the alerts that went pending or firing up to t
// seconds, with their times.
func firedBefore(as []GameAlert, t float64) string {
	var b strings.Builder
	for _, a := range as {
		for _, x := range a.Activations {
			if x.PendingS <= t {
				fmt.Fprintf(&b, "%s%s pending %g", a.Name, a.Labels, x.PendingS)
				if x.FiringS != nil && *x.FiringS <= t {
					fmt.Fprintf(&b, " firing %g", *x.FiringS)
				}
				b.WriteString("; ")
			}
		}
	}
	return b.String()
}
