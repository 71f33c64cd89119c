package experiment

import (
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alertBase is a valid experiment with one labelled fault and a variant;
// the tests append [alerts] and [[expect]] text to it.
const alertBase = `schema = 1
[experiment]
name = "a"
duration = "10m"
[[client]]
name = "users"
target = "api"
rate = 10
[[service]]
name = "api"
workers = 4
service_time = { dist = "exponential", mean = "10ms" }
[[fault]]
kind = "latency"
target = "api"
start = "1m"
end = "2m"
multiply = 5
label = "api slow"
[[variant]]
name = "v"
[variant.set]
"service.api.workers" = 2
`

// TestAlertExpectParse: a file with [alerts] and every kind of alert
// expectation reads into Alerts and AlertExpects, with the alert key's
// position; the metric expectation beside them is unaffected.
func TestAlertExpectParse(t *testing.T) {
	src := alertBase + `[alerts]
rules = "rules/slo.yml"
eval_interval = "5s"
[[expect]]
alert = "Slow"
fault = "api slow"
fires_within = "90s"
[[expect]]
alert = "Slow"
resolves_within = "2m"
variant = "v"
[[expect]]
alert = "*"
never_fires = true
baseline = true
[[expect]]
metric = "goodput"
min = 1
`
	e, err := Parse("a.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if e.Alerts == nil || e.Alerts.Rules != "rules/slo.yml" || e.Alerts.EvalInterval != 5*time.Second {
		t.Fatalf("alerts %+v", e.Alerts)
	}
	if len(e.AlertExpects) != 3 || len(e.Expects) != 1 {
		t.Fatalf("%d alert and %d metric expectations", len(e.AlertExpects), len(e.Expects))
	}
	x := e.AlertExpects[0]
	if x.Alert != "Slow" || x.Fault != "api slow" || x.FiresWithin != 90*time.Second || x.Variant != "base" || x.Key != "expect[0].alert" {
		t.Errorf("first: %+v", x)
	}
	if want := strings.Count(alertBase, "\n") + 5; x.Where.Line != want || x.Where.Col != 1 {
		t.Errorf("first at %d:%d, want %d:1", x.Where.Line, x.Where.Col, want)
	}
	if y := e.AlertExpects[1]; y.Variant != "v" || y.ResolvesWithin != 2*time.Minute {
		t.Errorf("second: %+v", y)
	}
	if z := e.AlertExpects[2]; !z.NeverFires || !z.Baseline || z.Alert != "*" {
		t.Errorf("third: %+v", z)
	}
}

// TestAlertExpectErrors is a table of bad [alerts] and alert
// expectations: each is reported at its key (line:col counted from the
// appended text's first line) with a message naming the problem.
func TestAlertExpectErrors(t *testing.T) {
	n := strings.Count(alertBase, "\n")
	for _, c := range []struct {
		name, src string
		line, col int // within the appended text, from 1
		want      string
	}{
		{"escape", "[alerts]\nrules = \"../x.yml\"\n", 2, 1, `no "..", "." or empty element`},
		{"absolute", "[alerts]\nrules = \"/etc/x.yml\"\n", 2, 1, "not absolute"},
		{"backslash", "[alerts]\nrules = 'a\\x.yml'\n", 2, 1, "use / between folders"},
		{"inner dotdot", "[alerts]\nrules = \"a/../../x.yml\"\n", 2, 1, `no ".."`},
		{"no rules", "[alerts]\neval_interval = \"5s\"\n", 1, 1, `missing required key "rules"`},
		{"unknown alerts key", "[alerts]\nrules = \"r.yml\"\nrule = 1\n", 3, 1, `unknown key "rule"`},
		{"short interval", "[alerts]\nrules = \"r.yml\"\neval_interval = \"1ms\"\n", 3, 1, "must be in [1s"},
		{"no alerts table", "[[expect]]\nalert = \"A\"\nnever_fires = true\n", 2, 1, "needs an [alerts] table"},
		{"unknown key", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfires_within = \"1m\"\nfire_within = \"1m\"\n", 6, 1, `unknown key "fire_within" (did you mean "fires_within"?)`},
		{"two kinds", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfires_within = \"1m\"\nnever_fires = true\n", 3, 1, "exactly one of"},
		{"none", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\n", 3, 1, "exactly one of"},
		{"never false", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nnever_fires = false\n", 5, 1, "asserts nothing"},
		{"zero", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfires_within = \"0s\"\n", 5, 1, "must be in [1ns"},
		{"too long", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfires_within = \"11m\"\n", 5, 1, "longer than the experiment's duration"},
		{"unknown fault", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfault = \"db down\"\nfires_within = \"1m\"\n", 5, 1, `no [[fault]] labelled "db down"; labels: "api slow"`},
		{"unknown variant", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nvariant = \"w\"\nnever_fires = true\n", 5, 1, `no variant named "w"`},
		{"baseline fires", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nbaseline = true\nfires_within = \"1m\"\n", 5, 1, "goes only with never_fires"},
		{"baseline and fault", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nbaseline = true\nfault = \"api slow\"\nnever_fires = true\n", 5, 1, "exclude each other"},
		{"star fires", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"*\"\nfires_within = \"1m\"\n", 4, 1, "goes only with never_fires"},
		{"empty alert", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"\"\nnever_fires = true\n", 4, 1, "must name an alert"},
		{"metric key", "[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nnever_fires = true\nmin = 1\n", 6, 1, `key "min" does not apply here`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("a.toml", []byte(alertBase+c.src))
			if err == nil {
				t.Fatal("accepted")
			}
			want := "a.toml:" + itoa(n+c.line) + ":" + itoa(c.col) + ": "
			for _, l := range strings.Split(err.Error(), "\n") {
				if strings.HasPrefix(l, want) && strings.Contains(l, c.want) {
					return
				}
			}
			t.Errorf("want a line %q...%q, got:\n%v", want, c.want, err)
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestAlertExpectFaultless: fires_within in an experiment without faults
// could never pass.
func TestAlertExpectFaultless(t *testing.T) {
	src := strings.Replace(alertBase, "[[fault]]\nkind = \"latency\"\ntarget = \"api\"\nstart = \"1m\"\nend = \"2m\"\nmultiply = 5\nlabel = \"api slow\"\n", "", 1)
	_, err := Parse("a.toml", []byte(src+"[alerts]\nrules = \"r.yml\"\n[[expect]]\nalert = \"A\"\nfires_within = \"1m\"\n"))
	if err == nil || !strings.Contains(err.Error(), "could never pass") {
		t.Errorf("got %v", err)
	}
}

// FuzzRulesPath: every [alerts] rules path the loader accepts is local
// (filepath.IsLocal: not absolute, not escaping with ..), already clean,
// and has no ".." element.
func FuzzRulesPath(f *testing.F) {
	for _, s := range []string{"r.yml", "a/b.yml", "../r.yml", "/etc/x", "a//b", "./r", "a\\b", "..", "a/..", "…/r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if badRulesPath(p) != "" {
			return
		}
		if !filepath.IsLocal(p) || path.Clean(p) != p || slices.Contains(strings.Split(p, "/"), "..") {
			t.Errorf("accepted %q", p)
		}
	})
}
