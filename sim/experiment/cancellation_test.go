package experiment

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
)

// withCancellation returns good with the line exp added after the
// header's interval (line 7) and the lines add after service[0]'s workers
// (line 16): add starts at line 17, or 18 when exp is not empty.
func withCancellation(t *testing.T, exp, add string) string {
	t.Helper()
	src := edit(t, "workers = 10\n", "workers = 10\n"+add)
	if exp != "" {
		src = strings.Replace(src, `interval = "500ms"`, `interval = "500ms"`+"\n"+exp, 1)
	}
	return src
}

func TestCancellationKeys(t *testing.T) {
	for _, tt := range []struct {
		name, exp, add string
		want           topology.Cancellation
		propagate      bool
	}{
		{"default", "", "", topology.CancelNever, false},
		{"never", "", "cancellation = \"never\"\n", topology.CancelNever, false},
		{"at_step", "propagate_cancellation = false", "cancellation = \"at_step\"\n", topology.CancelAtStep, false},
		{"continuous", "propagate_cancellation = true", "cancellation = \"continuous\"\n", topology.CancelContinuous, true},
	} {
		e, err := Parse("a.toml", []byte(withCancellation(t, tt.exp, tt.add)))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := e.Model.Services[0].Cancellation; got != tt.want {
			t.Errorf("%s: cancellation %v, want %v", tt.name, got, tt.want)
		}
		if got := e.Model.Services[1].Cancellation; got != topology.CancelNever {
			t.Errorf("%s: service[1] cancellation %v, want the default never", tt.name, got)
		}
		if e.Model.PropagateCancellation != tt.propagate {
			t.Errorf("%s: propagate_cancellation %v, want %v", tt.name, e.Model.PropagateCancellation, tt.propagate)
		}
	}
}

// Each error names the file, line and column of the offending key.
func TestCancellationErrors(t *testing.T) {
	for _, tt := range []struct {
		name, exp, add, want string
	}{
		{"typo", "", "cancellation = \"continous\"\n",
			`bad.toml:17:1: service[0].cancellation: unknown value "continous" (did you mean "continuous"?); expected one of: never, at_step, continuous`},
		{"not a string", "", "cancellation = true\n", "bad.toml:17:1: service[0].cancellation: expected a string"},
		{"empty", "", "cancellation = \"\"\n", `bad.toml:17:1: service[0].cancellation: unknown value ""`},
		{"table", "", "cancellation = { mode = \"at_step\" }\n", "bad.toml:17:1: service[0].cancellation: expected a string"},
		{"key typo", "", "cancelation = \"at_step\"\n", `service[0].cancelation: unknown key "cancelation" (did you mean "cancellation"?)`},
		{"propagate not a bool", "propagate_cancellation = \"yes\"", "", "bad.toml:8:1: experiment.propagate_cancellation: expected true or false, got a string"},
		{"propagate a number", "propagate_cancellation = 1", "", "bad.toml:8:1: experiment.propagate_cancellation: expected true or false, got an integer"},
		{"propagate typo", "propagate_cancelation = true", "", `experiment.propagate_cancelation: unknown key "propagate_cancelation" (did you mean "propagate_cancellation"?)`},
	} {
		_, err := Parse("bad.toml", []byte(withCancellation(t, tt.exp, tt.add)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A variant can switch cancellation on, and a bad value in a variant is
// reported as the variant's.
func TestCancellationVariant(t *testing.T) {
	src := withCancellation(t, "", "") + `
[[variant]]
name = "continuous"
set = { "service.0.cancellation" = "continuous", "experiment.propagate_cancellation" = true }
`
	e, err := Parse("a.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	v := e.Variants[0].Model
	if v.Services[0].Cancellation != topology.CancelContinuous || !v.PropagateCancellation {
		t.Errorf("variant: cancellation %v, propagate %v", v.Services[0].Cancellation, v.PropagateCancellation)
	}
	_, err = Parse("bad.toml", []byte(strings.Replace(src, `cancellation" = "continuous"`, `cancellation" = "always"`, 1)))
	if err == nil || !strings.Contains(err.Error(), `variant "continuous": service[0].cancellation: unknown value "always"`) {
		t.Errorf("err = %v", err)
	}
}
