package lint

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/importer"
	"github.com/ressim/ressim/sim/run/runner"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// writers are the output formats and their golden-file extensions.
var writers = []struct {
	ext   string
	write func(*bytes.Buffer, *Report) error
}{
	{"txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
	{"json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	{"sarif", func(b *bytes.Buffer, r *Report) error { return WriteSARIF(b, r) }},
}

// goldenReports are the reports pinned: the three bundled mistakes and
// the file with ignore comments.
func goldenReports(t *testing.T) map[string]*Report {
	t.Helper()
	out := map[string]*Report{}
	for _, n := range []string{"retry-amplification", "readiness-trap", "checkout-pool-exhaustion"} {
		e, src := loadBundled(t, n+".toml")
		r, err := Check(e, src, AllVariants)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = r
	}
	e, src := loadBundled(t, "retry-amplification.toml")
	r, err := Check(e, src, AllVariants)
	if err != nil {
		t.Fatal(err)
	}
	if err := Simulate(context.Background(), e, r, AllVariants, runner.Budget{}); err != nil {
		t.Fatal(err)
	}
	out["retry-amplification-simulate"] = r
	out["istio-bookinfo-import"] = importedReport(t, "istio", "istio-bookinfo.yaml")
	src, err = os.ReadFile("testdata/ignored.toml")
	if err != nil {
		t.Fatal(err)
	}
	e, err = experiment.Parse("testdata/ignored.toml", src)
	if err != nil {
		t.Fatal(err)
	}
	if out["ignored"], err = Check(e, src, AllVariants); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGolden pins the text, JSON and SARIF outputs, grouped across
// variants as the command writes them; go test -update rewrites them.
func TestGolden(t *testing.T) {
	for name, r := range goldenReports(t) {
		Group(r)
		for _, w := range writers {
			var b bytes.Buffer
			if err := w.write(&b, r); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", name+"."+w.ext)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the golden file; run go test ./sim/lint -update and review the diff", path)
			}
		}
	}
}

// TestIgnoreComments: a reasoned comment silences its rule on the next
// line and keeps the reason; one without a reason silences nothing and
// is reported as RS000.
func TestIgnoreComments(t *testing.T) {
	r := goldenReports(t)["ignored"]
	if len(r.Suppressed) != 1 || r.Suppressed[0].Rule != "RS006" ||
		r.Suppressed[0].Reason != "the edge proxy enforces a 10 % retry budget outside the model" {
		t.Errorf("suppressed %+v, want the one RS006 with its reason", r.Suppressed)
	}
	if got := rules(r); len(got) != 2 || got[0] != "RS012" || got[1] != "RS000" {
		t.Errorf("findings %v, want RS000 and RS012 (not silenced)", got)
	}
}

// TestDocsListEveryRule: docs/lint.md has an anchored section per rule,
// with its title and severity, and the table row.
func TestDocsListEveryRule(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "lint.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		for _, want := range []string{
			`<a id="` + strings.ToLower(r.ID) + `"></a>`,
			"### " + r.ID + ": " + r.Title,
			"| " + r.ID + " | " + string(r.Severity) + " |",
		} {
			if !bytes.Contains(doc, []byte(want)) {
				t.Errorf("docs/lint.md lacks %q", want)
			}
		}
	}
}

// importedReport lints a configuration of the importer's testdata as
// lint --import does: findings moved to the source's lines.
func importedReport(t *testing.T, kind, name string) *Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "importer", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	file := "sim/importer/testdata/" + name
	res, err := importer.Import(kind, []importer.Source{{Name: file, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse(file+" (imported)", []byte(res.TOML))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(e, []byte(res.TOML), AllVariants)
	if err != nil {
		t.Fatal(err)
	}
	MapToSources(r, []byte(res.TOML))
	return r
}
