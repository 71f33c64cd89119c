package experiment

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
)

// withAbandonment returns good with propagate_deadlines set as given (a
// line added after the header's interval, line 7) and the lines add after
// service[0]'s workers (line 16): add starts at line 17, or 18 with
// propagation.
func withAbandonment(t *testing.T, propagate bool, add string) string {
	t.Helper()
	src := edit(t, "workers = 10\n", "workers = 10\n"+add)
	if propagate {
		src = strings.Replace(src, `interval = "500ms"`, `interval = "500ms"`+"\npropagate_deadlines = true", 1)
	}
	return src
}

func TestAbandonmentKey(t *testing.T) {
	for _, tt := range []struct {
		name      string
		propagate bool
		add       string
		want      topology.Abandonment
	}{
		{"default", false, "", topology.AtDequeue},
		{"at_dequeue", false, "abandonment = \"at_dequeue\"\n", topology.AtDequeue},
		{"on_expiry", true, "abandonment = \"on_expiry\"\n", topology.OnExpiry},
		{"on_expiry with codel", true, "abandonment = \"on_expiry\"\ncodel = {}\n", topology.OnExpiry},
	} {
		e, err := Parse("a.toml", []byte(withAbandonment(t, tt.propagate, tt.add)))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := e.Model.Services[0].Abandonment; got != tt.want {
			t.Errorf("%s: abandonment %v, want %v", tt.name, got, tt.want)
		}
		if got := e.Model.Services[1].Abandonment; got != topology.AtDequeue {
			t.Errorf("%s: service[1] abandonment %v, want the default at_dequeue", tt.name, got)
		}
	}
}

// Each error names the file, line and column of the abandonment key.
func TestAbandonmentErrors(t *testing.T) {
	for _, tt := range []struct {
		name, add string
		propagate bool
		want      string
	}{
		{"typo", "abandonment = \"on_expiri\"\n", true,
			`bad.toml:18:1: service[0].abandonment: unknown value "on_expiri" (did you mean "on_expiry"?); expected one of: at_dequeue, on_expiry`},
		{"not a string", "abandonment = 1\n", true, "bad.toml:18:1: service[0].abandonment: expected a string"},
		{"no propagation", "abandonment = \"on_expiry\"\n", false,
			"bad.toml:17:1: service[0].abandonment: on_expiry needs [experiment] propagate_deadlines = true"},
		{"lifo", "abandonment = \"on_expiry\"\nlifo = {}\n", true,
			"bad.toml:18:1: service[0].abandonment: on_expiry does not combine with lifo"},
		{"key typo", "abandonmnt = \"on_expiry\"\n", true, `service[0].abandonmnt: unknown key "abandonmnt" (did you mean "abandonment"?)`},
	} {
		_, err := Parse("bad.toml", []byte(withAbandonment(t, tt.propagate, tt.add)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A variant that switches propagation off under an on_expiry service is
// refused too: variants are read as whole experiments.
func TestAbandonmentVariant(t *testing.T) {
	src := withAbandonment(t, true, "abandonment = \"on_expiry\"\n") + `
[[variant]]
name = "no-propagation"
set = { "experiment.propagate_deadlines" = false }
`
	_, err := Parse("bad.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `variant "no-propagation": service[0].abandonment: on_expiry needs`) {
		t.Errorf("err = %v", err)
	}
}
