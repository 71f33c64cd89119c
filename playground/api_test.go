package playground

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestListBundled: every bundled experiment is listed with its text, and
// each parses (its name is the file's [experiment].name).
func TestListBundled(t *testing.T) {
	l := List()
	if len(l) < 10 {
		t.Fatalf("listed %d experiments, want every bundled one", len(l))
	}
	for _, b := range l {
		// mm10.toml is the one bundled file without a description.
		if b.Text == "" || b.Description == "" && b.File != "mm10.toml" {
			t.Errorf("%s: name %q description %q: did it parse?", b.File, b.Name, b.Description)
		}
	}
}

// TestValidatePositions: a bad value is reported at its line and column
// with its key, as ressim validate reports it.
func TestValidatePositions(t *testing.T) {
	text := strings.Replace(bundled(t, "metastable-retry-storm.toml"), "workers = 10", "workers = -3", 1)
	line := 1 + strings.Count(text[:strings.Index(text, "workers = -3")], "\n")
	c := Validate(text)
	if len(c.Errors) != 1 || c.Errors[0].Line != line || !strings.Contains(c.Errors[0].Key, "workers") {
		t.Fatalf("got %+v, want one problem at line %d on workers", c.Errors, line)
	}
}

// TestExecuteKnobs: a knob's override changes the run (the retry budget
// rescues the storm); bad settings are refused with the reason.
func TestExecuteKnobs(t *testing.T) {
	if testing.Short() {
		t.Skip("two 10-minute simulations")
	}
	text := bundled(t, "metastable-retry-storm.toml")
	verdict := func(set string) string {
		r := Execute(text, "", set, nil)
		if r.Error != "" {
			t.Fatalf("set %s: %s", set, r.Error)
		}
		var s struct {
			Headline struct{ Verdict string } `json:"headline"`
		}
		if err := json.Unmarshal([]byte(r.Summary), &s); err != nil {
			t.Fatal(err)
		}
		return s.Headline.Verdict
	}
	if v := verdict(""); v != "locked_in" {
		t.Errorf("base: verdict %q, want locked_in", v)
	}
	if v := verdict(`{"client.users.retry_budget": {"ratio": 0.1, "capacity": 100, "min_retries_per_second": 1}}`); v != "recovered" {
		t.Errorf("retry budget: verdict %q, want recovered", v)
	}
	if r := Execute(text, "", `{"client.users.retry.attempts": 0}`, nil); !strings.Contains(r.Error, "attempts") {
		t.Errorf("attempts 0: error %q, want one naming attempts", r.Error)
	}
}

func bundled(t *testing.T, file string) string {
	t.Helper()
	for _, b := range List() {
		if b.File == file {
			return b.Text
		}
	}
	t.Fatalf("%s not bundled", file)
	return ""
}

// TestExecuteWithHooks: the stages come in order, the live overview twice
// while simulating (mm10 is a large run: 2 million events), and every
// figure is handed over as soon as it is drawn, overview.svg first (before
// summary.json), the same bytes as the answer's.
func TestExecuteWithHooks(t *testing.T) {
	var stages []string
	var figs, live []Figure
	r := ExecuteWith(bundled(t, "mm10.toml"), "7", "", Hooks{
		Stage:  func(s string) { stages = append(stages, s) },
		Figure: func(f Figure) { figs = append(figs, f) },
		Live:   func(f Figure) { live = append(live, f) },
	})
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	if len(live) != 2 || live[0].File != "overview.svg" || !strings.Contains(live[0].SVG, "running") {
		t.Errorf("%d live figures, want two live overviews", len(live))
	}
	want := "parsed,live,live,simulated,figure,summary" + strings.Repeat(",figure", len(r.Figures)-1)
	if got := strings.Join(stages, ","); got != want {
		t.Errorf("stages %s, want %s", got, want)
	}
	if len(figs) == 0 || figs[0].File != "overview.svg" {
		t.Fatalf("figures heard %d, the first %+v; want overview.svg first", len(figs), figs)
	}
	for i, f := range r.Figures {
		if i >= len(figs) || figs[i] != f {
			t.Errorf("figure %d (%s) heard differently from the answer's", i, f.File)
		}
	}
}
