package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMergeGolden: the Bookinfo Istio config merged into an experiment
// by a mapping file: the result validates, runs, keeps the replaced
// settings as comments, and matches its golden file.
func TestMergeGolden(t *testing.T) {
	r := importFile(t, "istio", "istio-bookinfo.yaml")
	maps, err := ParseMappingFile("testdata/into-bookinfo.map", readTestdata(t, "into-bookinfo.map"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Merge(r, "testdata/into-bookinfo.toml", readTestdata(t, "into-bookinfo.toml"), maps)
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse("merged.toml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	m, err := topology.New(e.Model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(); err != nil {
		t.Fatal(err)
	}
	ratings := e.Model.Services[1].Steps[0].Calls[0]
	if ratings.Policy.Retry.MaxAttempts != 3 || ratings.Policy.Timeout.String() != "500ms" {
		t.Errorf("reviews -> ratings: retry %+v timeout %v, want Istio's default 3 attempts and the experiment's 500ms", ratings.Policy.Retry, ratings.Policy.Timeout)
	}
	if e.Model.Services[1].Balancer.String() != "random" {
		t.Errorf("reviews balancer %v, want random", e.Model.Services[1].Balancer)
	}
	for _, want := range []string{
		`  # replaced by import: retry = { attempts = 2, backoff = "full_jitter",`,
		`  # replaced by import: base = "10ms" }`,
		`  retry.attempts = 3 # testdata/istio-bookinfo.yaml:46:5 VirtualService.spec.http[1]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("merged experiment lacks %q", want)
		}
	}
	golden(t, filepath.Join("testdata", "golden", "into-bookinfo.toml"), []byte(out))
}

// TestMergeErrors: unmapped imported calls are errors at their source
// position; mappings naming unknown calls are errors at the mapping.
func TestMergeErrors(t *testing.T) {
	r := importFile(t, "istio", "istio-bookinfo.yaml")
	into := readTestdata(t, "into-bookinfo.toml")
	cases := []struct {
		maps []string
		want []string
	}{
		{[]string{"reviews=productpage:reviews"}, []string{`testdata/istio-bookinfo.yaml:44:15: VirtualService.spec.http[0].route[0].destination.host: "ratings" is not mapped`}},
		{[]string{"nope=productpage:reviews", "ratings=reviews:ratings", "reviews=productpage:reviews"}, []string{`--map[1]: no imported call named "nope" (imported: "reviews", "ratings")`}},
		{[]string{"reviews=checkout:reviews", "ratings=reviews:ratings"}, []string{`--map[1]: the experiment has no service "checkout"`}},
		{[]string{"reviews=productpage:ratings", "ratings=reviews:ratings"}, []string{`--map[1]: service "productpage" has no step calling "ratings"`}},
		{[]string{"reviews=productpage:reviews", "ratings=productpage:reviews"}, []string{`--map[2]: productpage:reviews is already set by --map[1]`}},
	}
	for _, c := range cases {
		var maps []Mapping
		for i, s := range c.maps {
			m, err := ParseMapping(s, "--map["+string(rune('1'+i))+"]")
			if err != nil {
				t.Fatal(err)
			}
			maps = append(maps, m)
		}
		_, err := Merge(r, "into.toml", into, maps)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %v, want %q", c.maps, err, w)
			}
		}
	}
	if _, err := ParseMappingFile("m.map", []byte("# ok\nreviews = productpage\n")); err == nil || !strings.Contains(err.Error(), "m.map:2:1: mapping") {
		t.Errorf("bad mapping line: %v", err)
	}
}
