package importer

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/experiment"
)

// faultName is issue 23's attack: a resilience4j config name that, copied
// raw into the comment after an inherited setting, ends the comment and
// adds a live load fault (x40) to the generated experiment.
const faultName = "e\n[[fault]]\nkind = \"load\"\ntarget = \"users\"\nstart = \"0s\"\nend = \"60s\"\nmultiply = 40\n#"

// r4jWithConfig is an application.yml whose instance a inherits a
// setting from a config named name.
func r4jWithConfig(name string) string {
	q := strings.ReplaceAll(strings.ReplaceAll(name, `"`, `\"`), "\n", `\n`)
	return "resilience4j.circuitbreaker:\n  configs:\n    \"" + q + "\":\n      slidingWindowSize: 10\n" +
		"  instances:\n    a:\n      baseConfig: \"" + q + "\"\n"
}

// TestConfigNameCannotAddAFault reproduces issue 23: before the fix the
// generated experiment had a [[fault]] table (and `ressim validate`
// accepted it). The name must stay inside its comment, escaped.
func TestConfigNameCannotAddAFault(t *testing.T) {
	r, err := Import("resilience4j", []Source{{"x.yml", []byte(r4jWithConfig(faultName))}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse("x.toml", []byte(r.TOML))
	if err != nil {
		t.Fatalf("generated experiment invalid: %v\n%s", err, r.TOML)
	}
	if len(e.Model.Faults) != 0 {
		t.Fatalf("the config name added %d fault(s):\n%s", len(e.Model.Faults), r.TOML)
	}
	checkOnlyImported(t, "resilience4j", r, e)
	want := `breaker.window_size = 10 # x.yml:4:7 resilience4j.circuitbreaker.configs.e\n[[fault]]\nkind = "load"\ntarget = "users"\nstart = "0s"\nend = "60s"\nmultiply = 40\n#.slidingWindowSize` + "\n"
	if !strings.Contains(r.TOML, want) {
		t.Errorf("generated experiment lacks the escaped comment %q:\n%s", want, r.TOML)
	}
}

// checkOnlyImported fails unless the generated experiment e (text r.TOML)
// is exactly the skeleton of the import: the skeleton's tables and keys
// and nothing else (no [[fault]], [[variant]], [sweep], [[expect]]...),
// one client, the caller plus one service per imported callee, the
// caller's steps the imported calls in order; and the text is UTF-8 with
// no control character but newlines, so that no name escaped its string
// or comment.
func checkOnlyImported(t *testing.T, kind string, r *Result, e *experiment.Experiment) {
	t.Helper()
	text := r.TOML
	if !utf8.ValidString(text) || termsafe.Text(text) != text {
		t.Fatalf("generated text has control characters or is not UTF-8:\n%q", text)
	}
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		t.Fatalf("generated TOML does not decode: %v", err)
	}
	allowed := map[string][]string{
		"":           {"schema", "experiment", "client", "service"},
		"experiment": {"name", "description", "duration", "seed", "propagate_deadlines"},
		"client":     {"name", "target", "rate", "deadline"},
		"service":    {"name", "workers", "service_time", "step", "outlier", "balancer"},
		"step":       {"call", "operation", "timeout", "retry", "retry_budget", "bulkhead", "breaker"},
	}
	onlyKeys(t, "", raw, allowed[""])
	onlyKeys(t, "experiment", raw["experiment"].(map[string]any), allowed["experiment"])
	for _, c := range raw["client"].([]map[string]any) {
		onlyKeys(t, "client", c, allowed["client"])
	}
	for _, s := range raw["service"].([]map[string]any) {
		onlyKeys(t, "service", s, allowed["service"])
		steps, _ := s["step"].([]map[string]any)
		for _, st := range steps {
			onlyKeys(t, "step", st, allowed["step"])
		}
	}
	if e.Name != "imported-"+kind || len(e.Variants) != 0 || e.Sweep != nil || len(e.Expects) != 0 || e.Alerts != nil ||
		len(e.AlertExpects) != 0 || len(e.Knobs) != 0 || len(e.Model.Faults) != 0 || e.Replications > 1 {
		t.Fatalf("generated experiment has more than the skeleton:\n%s", text)
	}
	m := &e.Model
	if len(m.Clients) != 1 || m.Clients[0].Name != "users" || m.Clients[0].Target != "caller" {
		t.Fatalf("clients %+v, want users only:\n%s", m.Clients, text)
	}
	want := append([]string{"caller"}, r.sk.services()...)
	if len(m.Services) != len(want) {
		t.Fatalf("%d services, want %d (%v):\n%s", len(m.Services), len(want), want, text)
	}
	for i, s := range m.Services {
		calls := 0
		for _, st := range s.Steps {
			calls += len(st.Calls)
		}
		if s.Name != want[i] || i > 0 && (calls != 0 || len(s.Operations) != 0) {
			t.Fatalf("service %d is %q with %d calls, want %q (callees call nothing):\n%s", i, s.Name, calls, want[i], text)
		}
	}
	steps := m.Services[0].Steps
	if len(steps) != len(r.sk.calls) {
		t.Fatalf("caller has %d steps, want %d:\n%s", len(steps), len(r.sk.calls), text)
	}
	for i, st := range steps {
		c := r.sk.calls[i]
		if len(st.Calls) != 1 || st.Calls[0].Service != c.service || st.Calls[0].Operation != c.operation {
			t.Fatalf("step %d is %+v, want a call to %q operation %q:\n%s", i, st.Calls, c.service, c.operation, text)
		}
	}
}

func onlyKeys(t *testing.T, table string, m map[string]any, allowed []string) {
	t.Helper()
	for k := range m {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			t.Fatalf("generated experiment has key %q in %q (allowed: %v)", k, table, allowed)
		}
	}
}

// TestNamesAreEscapedEverywhere: a gRPC method (the one name copied into a
// string value unchecked), a file name and a config name with control
// characters, quotes and a bidirectional override come out as escaped
// TOML strings and one-line comments, and parse back to the same text.
func TestNamesAreEscapedEverywhere(t *testing.T) {
	method := "m\a\x1b[2J\"\\\u202e\u0085\n[[fault]]"
	file := "dir\n[[variant]]\x9b/cfg\r.json"
	src := `{"methodConfig": [{"name": [{"service": "a", "method": "m\u0007\u001b[2J\"\\\u202e\u0085\n[[fault]]"}], "timeout": "1s"}]}`
	r, err := Import("grpc", []Source{{file, []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse("x.toml", []byte(r.TOML))
	if err != nil {
		t.Fatalf("generated experiment invalid: %v\n%s", err, r.TOML)
	}
	checkOnlyImported(t, "grpc", r, e)
	if got := e.Model.Services[0].Steps[0].Calls[0].Operation; got != method {
		t.Errorf("operation %q, want %q", got, method)
	}
	if want := "resilience settings imported from " + strings.ToValidUTF8(file, "\uFFFD"); e.Description != want {
		t.Errorf("description %q, want %q", e.Description, want)
	}
	for _, want := range []string{
		`operation = "m\u0007\u001B[2J\"\\\u202E\u0085\n[[fault]]"`,
		`# Generated by ` + "`ressim import grpc`" + ` from dir\n[[variant]]\x9b/cfg\r.json.`,
		`timeout = "1s" # dir\n[[variant]]\x9b/cfg\r.json:1:105 methodConfig[0].timeout`,
	} {
		if !strings.Contains(r.TOML, want) {
			t.Errorf("generated experiment lacks %q:\n%s", want, r.TOML)
		}
	}
}

// TestSpacesInNamesAreNotABug: a config name with spaces, whose inherited
// value ressim refuses, is an error at the source (the source comment
// used to be parsed back with a pattern that a space broke, and the
// refusal was reported as a bug in import).
func TestSpacesInNamesAreNotABug(t *testing.T) {
	src := strings.Replace(r4jWithConfig("my base config"), "slidingWindowSize: 10", "slidingWindowSize: 0", 1)
	_, err := Import("resilience4j", []Source{{"my dir/app.yml", []byte(src)}})
	var errs Errors
	if !errors.As(err, &errs) || errors.Is(err, errImportBug) {
		t.Fatalf("error %v, want an error at the source", err)
	}
	if want := "my dir/app.yml:4:7: resilience4j.circuitbreaker.configs.my base config.slidingWindowSize: not accepted by ressim: must be in [1, 2^20]"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestMergeEscapesNames: --into's file name and the sources' names are
// escaped in the merged file's comments too: the merged experiment gains
// no table from them.
func TestMergeEscapesNames(t *testing.T) {
	data := readTestdata(t, "istio-bookinfo.yaml")
	r, err := Import("istio", []Source{{"mesh\n[[fault]]\n.yaml", data}})
	if err != nil {
		t.Fatal(err)
	}
	maps, err := ParseMappingFile("testdata/into-bookinfo.map", readTestdata(t, "into-bookinfo.map"))
	if err != nil {
		t.Fatal(err)
	}
	into := readTestdata(t, "into-bookinfo.toml")
	out, err := Merge(r, "shop\n[sweep]\n.toml", into, maps)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "# Merged by `ressim import istio --into shop\\n[sweep]\\n.toml` from mesh\\n[[fault]]\\n.yaml: ") ||
		!strings.Contains(out, " # mesh\\n[[fault]]\\n.yaml:") {
		t.Errorf("merged file's names are not escaped:\n%s", out)
	}
	want, err := experiment.Parse("into.toml", into)
	if err != nil {
		t.Fatal(err)
	}
	got, err := experiment.Parse("merged.toml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got.Sweep != nil || len(got.Model.Faults) != len(want.Model.Faults) || len(got.Model.Services) != len(want.Model.Services) {
		t.Errorf("the merge added tables:\n%s", out)
	}
}

// TestDiagnosticsAreOneLine: a key name with terminal escape codes (an
// unknown top-level key, warned about) is escaped in the warning.
func TestDiagnosticsAreOneLine(t *testing.T) {
	src := "\"\\e[2J\\e]0;title\\a\\rok\\b\\x9b\\nwarning: forged\": 1\n" + r4jWithConfig("c")
	r, err := Import("resilience4j", []Source{{"x.yml", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) == 0 {
		t.Fatal("no warning for the unknown key")
	}
	got := r.Warnings[0].String()
	want := `x.yml:1:1: \x1b[2J\x1b]0;title\a\rok\b\u009b\nwarning: forged: not a resilience4j section; ignored`
	if got != want {
		t.Errorf("warning %q, want %q", got, want)
	}
}
