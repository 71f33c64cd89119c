package lint

import (
	"strings"
	"testing"
)

// TestStickyRule: RS021 notes the retries above a sticky error fault of
// rate 1, once per fault, with the attempts at its target; a file
// without a sticky fault, or without retries above it, gets nothing new.
func TestStickyRule(t *testing.T) {
	const budgeted = `timeout = "100ms"
  retry = { attempts = 3 }
  retry_budget = { ratio = 0.1 }`
	fault := func(extra string) string {
		return `queue_capacity = 0
[[fault]]
kind = "error"
target = "back"
start = "1s"
end = "5s"
` + extra
	}
	cases := []struct {
		name    string
		set     map[int]string
		want    string
		message string
	}{
		{"sticky fault under a retry", map[int]string{3: budgeted, 4: fault(`rate = 1
sticky = { by = "key", share = 0.25 }`)}, "RS021",
			`back errors 100%: a sticky error fault fails the same 0.25 of the keys at every attempt, and users -> front -> back makes up to 3 attempts at back per request (1 x 3): on that share every retry fails, 2 wasted attempts per failing request, and at most 0.75 of the requests can succeed whatever the retry policy`},
		{"retries at two layers", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }
retry_budget = { ratio = 0.1 }`, 3: budgeted, 4: fault(`rate = 1
sticky = { by = "user", share = 0.1 }`)}, "RS021", "makes up to 6 attempts at back per request (2 x 3)"},
		{"independent fault under a retry", map[int]string{3: budgeted, 4: fault(`rate = 1`)}, "", ""},
		{"sticky fault of rate below 1", map[int]string{3: budgeted, 4: fault(`rate = 0.5
sticky = { by = "request", share = 0.5 }`)}, "", ""},
		{"sticky fault without retries", map[int]string{4: fault(`rate = 1
sticky = { by = "request", share = 0.5 }`)}, "", ""},
		{"sticky latency fault", map[int]string{3: budgeted, 4: strings.Replace(fault(`multiply = 3
sticky = { by = "request", share = 0.5 }`), `"error"`, `"latency"`, 1)}, "", ""},
	}
	for _, c := range cases {
		parts := clean
		for k, v := range c.set {
			parts[k] = v
		}
		r := lintSrc(t, build(parts[0], parts[1], parts[2], parts[3], parts[4]))
		if got := strings.Join(rules(r), " "); got != c.want {
			t.Errorf("%s: rules %q, want %q; findings %+v", c.name, got, c.want, r.Findings)
			continue
		}
		if c.message != "" && !strings.Contains(r.Findings[0].Message, c.message) {
			t.Errorf("%s: message\n%s\nwant it to contain\n%s", c.name, r.Findings[0].Message, c.message)
		}
	}
}
