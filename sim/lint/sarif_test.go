package lint

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// The official SARIF 2.1.0 JSON schema is not available offline, so this
// is a focused structural check of what the schema requires of the parts
// ressim writes (OASIS SARIF 2.1.0, sections 3.13 sarifLog, 3.14 run,
// 3.18 tool, 3.19 toolComponent, 3.49 reportingDescriptor, 3.27 result,
// 3.28 location, 3.29 physicalLocation, 3.30 region, 3.35 suppression):
// required properties present, enumerations respected, ruleIndex
// consistent with ruleId, positions 1-based.

type obj = map[string]any

func field(t *testing.T, o obj, k, where string) any {
	t.Helper()
	v, ok := o[k]
	if !ok {
		t.Fatalf("%s: required property %q missing", where, k)
	}
	return v
}

func TestSARIFStructure(t *testing.T) {
	for name, r := range goldenReports(t) {
		var b bytes.Buffer
		if err := WriteSARIF(&b, r); err != nil {
			t.Fatal(err)
		}
		var log obj
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		if v := field(t, log, "version", "sarifLog"); v != "2.1.0" {
			t.Errorf("%s: version %v", name, v)
		}
		if s, _ := log["$schema"].(string); s == "" {
			t.Errorf("%s: $schema missing", name)
		}
		runs, ok := field(t, log, "runs", "sarifLog").([]any)
		if !ok || len(runs) != 1 {
			t.Fatalf("%s: runs must be an array of one run", name)
		}
		checkRun(t, name, runs[0].(obj), len(r.Findings)+len(r.Suppressed))
	}
}

func checkRun(t *testing.T, name string, run obj, results int) {
	tool := field(t, run, "tool", "run").(obj)
	driver := field(t, tool, "driver", "tool").(obj)
	if n, _ := field(t, driver, "name", "toolComponent").(string); n == "" {
		t.Errorf("%s: driver.name empty", name)
	}
	var ids []string
	for _, x := range field(t, driver, "rules", "toolComponent").([]any) {
		rule := x.(obj)
		ids = append(ids, field(t, rule, "id", "reportingDescriptor").(string))
		checkLevel(t, name, field(t, rule, "defaultConfiguration", "reportingDescriptor").(obj)["level"])
	}
	rs := field(t, run, "results", "run").([]any)
	if len(rs) != results {
		t.Errorf("%s: %d results, want %d", name, len(rs), results)
	}
	for _, x := range rs {
		res := x.(obj)
		msg := field(t, res, "message", "result").(obj)
		if s, _ := msg["text"].(string); s == "" {
			t.Errorf("%s: result message without text", name)
		}
		id := field(t, res, "ruleId", "result").(string)
		if i := int(field(t, res, "ruleIndex", "result").(float64)); i < 0 || i >= len(ids) || ids[i] != id {
			t.Errorf("%s: ruleIndex %d does not name %s", name, i, id)
		}
		checkLevel(t, name, res["level"])
		checkLocation(t, name, field(t, res, "locations", "result").([]any))
		if sup, ok := res["suppressions"].([]any); ok {
			for _, s := range sup {
				if k := field(t, s.(obj), "kind", "suppression"); k != "inSource" && k != "external" {
					t.Errorf("%s: suppression kind %v", name, k)
				}
			}
		}
	}
}

func checkLevel(t *testing.T, name string, v any) {
	switch v {
	case "none", "note", "warning", "error":
	default:
		t.Errorf("%s: level %v not in SARIF's enumeration", name, v)
	}
}

func checkLocation(t *testing.T, name string, locs []any) {
	if len(locs) != 1 {
		t.Fatalf("%s: %d locations, want 1", name, len(locs))
	}
	pl := field(t, locs[0].(obj), "physicalLocation", "location").(obj)
	art := field(t, pl, "artifactLocation", "physicalLocation").(obj)
	u, _ := art["uri"].(string)
	if u == "" {
		t.Errorf("%s: artifactLocation without uri", name)
	}
	// SARIF 2.1.0 §3.4.3: a URI reference (RFC 3986): nothing to escape left.
	if _, err := url.Parse(u); err != nil || strings.ContainsAny(u, " ()\\") {
		t.Errorf("%s: artifactLocation.uri %q is not a valid URI reference (%v)", name, u, err)
	}
	// The region is optional (§3.29.2): a finding on a generated line has
	// the file alone.
	r, ok := pl["region"]
	if !ok {
		return
	}
	reg := r.(obj)
	for _, k := range []string{"startLine", "startColumn"} {
		if v, _ := reg[k].(float64); v < 1 {
			t.Errorf("%s: region.%s = %v, want >= 1", name, k, reg[k])
		}
	}
}

// TestSARIFURI: every file name becomes a valid URI reference that
// unescapes back to the name (issue 24: "(imported)" and spaces made
// invalid URIs), and a generated experiment's name points at its source.
func TestSARIFURI(t *testing.T) {
	for _, tc := range []struct {
		file, uri string
		generated bool
	}{
		{"exp.toml", "exp.toml", false},
		{"dir/my exp#1 100%.toml", "dir/my%20exp%231%20100%25.toml", false},
		{"mesh.yaml (imported)", "mesh.yaml", true},
		{"/abs/a b.toml", "file:///abs/a%20b.toml", false},
	} {
		uri, gen := sarifURI(tc.file)
		if uri != tc.uri || gen != tc.generated {
			t.Errorf("sarifURI(%q) = %q, %v; want %q, %v", tc.file, uri, gen, tc.uri, tc.generated)
		}
		u, err := url.Parse(uri)
		if err != nil {
			t.Errorf("%q: %v", uri, err)
			continue
		}
		if want := strings.TrimSuffix(tc.file, ImportedSuffix); u.Path != want {
			t.Errorf("%q unescapes to %q, want %q", uri, u.Path, want)
		}
	}
}
