package headline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTableWellFormed: every key has a row, with a unique snake_case
// name, a unit and a label; a per-run metric has a partial-file name and
// only a per-run metric has one; ratios and fault-judged metrics are
// consistent with their units.
func TestTableWellFormed(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	names, wires, summaries := map[string]Key{}, map[string]Key{}, map[string]Key{}
	for _, k := range Keys() {
		d := k.Def()
		if !snake.MatchString(d.Name) {
			t.Errorf("key %d: name %q is not snake_case", k, d.Name)
		}
		if d.Unit == "" || d.Label == "" {
			t.Errorf("%s: unit %q, label %q: both are required", d.Name, d.Unit, d.Label)
		}
		if d.Ratio && d.Unit != "ratio" {
			t.Errorf("%s lies in [0, 1] but its unit is %q", d.Name, d.Unit)
		}
		if d.PerRun != (d.Wire != "") {
			t.Errorf("%s: per run %v, partial-file name %q: a per-run metric needs one, no other has one", d.Name, d.PerRun, d.Wire)
		}
		for _, m := range []struct {
			seen map[string]Key
			name string
		}{{names, d.Name}, {wires, d.Wire}, {summaries, d.Summary}} {
			if m.name == "" {
				continue
			}
			if o, dup := m.seen[m.name]; dup {
				t.Errorf("%s and %s share the name %q", o, k, m.name)
			}
			m.seen[m.name] = k
		}
		if got, ok := Lookup(d.Name); !ok || got != k {
			t.Errorf("Lookup(%q) = %v, %v; want %v", d.Name, got, ok, k)
		}
	}
	if _, ok := Lookup(""); ok {
		t.Error(`Lookup("") found a key`)
	}
	if Key(0).Valid() || numKeys.Valid() || Key(0).Name() != "" {
		t.Error("the zero key or one past the last is a metric")
	}
}

// TestFileFormatNames: the names experiment files, compare.json,
// compare.csv and sweep.json use, in the order the loader lists them in
// its "expected one of" message. Renaming or reordering one changes every
// file that names it: this list is the format, and changes only with it.
func TestFileFormatNames(t *testing.T) {
	want := []string{"locked_in_probability", "goodput", "goodput_share", "p99_latency", "p99_outcome_latency",
		"success_ratio", "in_flight_at_end", "amplification", "wasted_work", "recovery_time"}
	if got := Names(Keys()); !slices.Equal(got, want) {
		t.Errorf("names %q,\nwant %q", got, want)
	}
}

// TestWireNames: the partial format (ressim-partial/1) is stable; a
// partial file written before this contract names its headline floats
// so, and must still merge.
func TestWireNames(t *testing.T) {
	want := map[Key]string{Goodput: "goodput", GoodputShare: "goodput_share", P99Latency: "p99",
		P99OutcomeLatency: "p99_outcome", SuccessRatio: "success_ratio", InFlightAtEnd: "in_flight_at_end",
		Amplification: "amplification", WastedWork: "wasted_work", RecoveryTime: "recovery"}
	for _, k := range Keys() {
		if got := k.Def().Wire; got != want[k] {
			t.Errorf("%s: partial-file name %q, want %q", k, got, want[k])
		}
	}
}

// TestSelect: the flags select what the file format's checks say.
func TestSelect(t *testing.T) {
	ratio := Select(func(d Def) bool { return d.Ratio })
	if !slices.Equal(ratio, []Key{LockedInProbability, GoodputShare, SuccessRatio}) {
		t.Errorf("ratios %v", ratio)
	}
	fault := Select(func(d Def) bool { return d.AfterFault })
	if !slices.Equal(fault, []Key{LockedInProbability, RecoveryTime}) {
		t.Errorf("judged after a fault: %v", fault)
	}
	if perRun := Select(func(d Def) bool { return d.PerRun }); len(perRun) != len(Keys())-1 || slices.Contains(perRun, LockedInProbability) {
		t.Errorf("per run: %v", perRun)
	}
}

// TestDocsTable: docs/compare.md's table of the headline metrics has one
// row per key, in the contract's order, with its label, name and unit.
func TestDocsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| metric (table label) | name | unit | meaning |\n| --- | --- | --- | --- |\n")
	if !ok {
		t.Fatal("docs/compare.md has no table of the headline metrics")
	}
	var got []string
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(line, " | ")
		got = append(got, strings.Join(cells[:3], " | "))
	}
	var want []string
	for _, k := range append(Select(func(d Def) bool { return d.PerRun }), LockedInProbability) {
		want = append(want, fmt.Sprintf("| %s | `%s` | %s", k.Label(), k.Name(), k.Unit()))
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/compare.md rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
