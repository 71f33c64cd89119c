package experiment

import (
	"regexp"
	"strings"
	"testing"
)

// knobLines matches a position in the knob's block, lines 15 to 22.
var knobLines = regexp.MustCompile(`^k\.toml:(1[5-9]|2[0-2]):`)

const knobBase = `schema = 1
[experiment]
name = "knobs"
duration = "60s"
[[client]]
name = "users"
target = "api"
rate = 400
retry = { attempts = 3, backoff = "none" }
[[service]]
name = "api"
workers = 10
queue_capacity = 100
service_time = { dist = "exponential", mean = "10ms" }
`

// TestKnobs: each [[knob]] block is read strictly; a bad one is reported
// at its line with its key. The base has 14 lines, so the knob starts at
// line 15.
func TestKnobs(t *testing.T) {
	for _, c := range []struct {
		name, knob string
		want       string // "" for valid; else a substring of the error
	}{
		{"integer", `name = "attempts"` + "\n" + `label = "Attempts"` + "\n" + `path = "client.users.retry.attempts"` + "\n" + `type = "integer"` + "\nmin = 1\nmax = 5", ""},
		{"toggle", `name = "budget"` + "\n" + `label = "Budget"` + "\n" + `path = "client.users.retry_budget"` + "\n" + `type = "toggle"` + "\non = { ratio = 0.1 }", ""},
		{"choice", `name = "q"` + "\n" + `label = "Queue"` + "\n" + `path = "service.api.queue_capacity"` + "\n" + `type = "choice"` + "\nvalues = [10, 100]", ""},
		{"unknown key", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.rate"` + "\n" + `type = "number"` + "\nmin = 1\nmax = 5\nvalues = [1]", "knob[0].values"},
		{"bad type", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.rate"` + "\n" + `type = "slider"`, `unknown value "slider"`},
		{"max below min", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.rate"` + "\n" + `type = "number"` + "\nmin = 5\nmax = 1", "must be above min"},
		{"no such path", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.nobody.rate"` + "\n" + `type = "number"` + "\nmin = 1\nmax = 5", `no element named "nobody"`},
		{"invalid value", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.retry.attempts"` + "\n" + `type = "integer"` + "\nmin = 0\nmax = 5", `knob "a": value 0`},
		{"missing on", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.breaker"` + "\n" + `type = "toggle"`, `missing required key "on"`},
		{"one choice", `name = "a"` + "\n" + `label = "A"` + "\n" + `path = "client.users.rate"` + "\n" + `type = "choice"` + "\nvalues = [1]", "at least two values"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Parse("k.toml", []byte(knobBase+"[[knob]]\n"+c.knob+"\n"))
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(e.Knobs) != 1 {
					t.Fatalf("got %d knobs, want 1", len(e.Knobs))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if !knobLines.MatchString(err.Error()) {
				t.Fatalf("error %q is not positioned in the knob's lines (15-22)", err)
			}
		})
	}
}

// TestKnobDefault: a knob records the file's value at its path, and nil
// where the file sets nothing.
func TestKnobDefault(t *testing.T) {
	e, err := Parse("k.toml", []byte(knobBase+`[[knob]]
name = "attempts"
label = "Attempts"
path = "client.users.retry.attempts"
type = "integer"
min = 1
max = 5
[[knob]]
name = "budget"
label = "Budget"
path = "client.users.retry_budget"
type = "toggle"
on = { ratio = 0.1 }
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Knobs[0].Default; got != int64(3) {
		t.Errorf("attempts default = %v, want 3", got)
	}
	if got := e.Knobs[1].Default; got != nil {
		t.Errorf("budget default = %v, want nil", got)
	}
}

// FuzzKnobs: a file the reader accepts never panics, and every value each
// of its knobs can set (min, max, each choice, on) gives a valid
// experiment, as the reader promises the playground.
func FuzzKnobs(f *testing.F) {
	f.Add([]byte(knobBase + "[[knob]]\nname = \"a\"\nlabel = \"A\"\npath = \"client.users.retry.attempts\"\ntype = \"integer\"\nmin = 1\nmax = 5\n"))
	f.Add([]byte(knobBase + "[[knob]]\nname = \"b\"\nlabel = \"B\"\npath = \"client.users.retry_budget\"\ntype = \"toggle\"\non = { ratio = 0.1 }\n"))
	f.Add([]byte(knobBase + "[[knob]]\nname = \"c\"\nlabel = \"C\"\npath = \"client.users.retry.backoff\"\ntype = \"choice\"\nvalues = [\"none\", \"full_jitter\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse("fuzz.toml", data)
		if err != nil {
			return
		}
		for _, k := range e.Knobs {
			var values []any
			switch k.Type {
			case "integer":
				values = []any{int64(k.Min), int64(k.Max)}
			case "number":
				values = []any{k.Min, k.Max}
			case "choice":
				values = k.Values
			case "toggle":
				values = []any{k.On}
			default:
				t.Fatalf("knob %q has type %q", k.Name, k.Type)
			}
			for _, v := range values {
				if _, err := e.With(map[string]any{k.Path: v}); err != nil {
					t.Fatalf("knob %q value %v accepted by the reader but: %v", k.Name, v, err)
				}
			}
		}
	})
}
