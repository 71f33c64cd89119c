package lint

import (
	"slices"
	"testing"
)

// TestGroupAcrossVariants: no finding is reported twice (issue 24: the
// retry storm's RS013 came once per variant, five times); a finding
// every variant shows names them all, base first; one a variant fixes
// names only those that still show it; the counts by severity are the
// grouped ones.
func TestGroupAcrossVariants(t *testing.T) {
	e, src := loadBundled(t, "metastable-retry-storm.toml")
	r, err := Check(e, src, AllVariants)
	if err != nil {
		t.Fatal(err)
	}
	before := len(r.Findings)
	Group(r)
	if len(r.Findings) >= before {
		t.Fatalf("%d findings grouped into %d", before, len(r.Findings))
	}
	seen := map[string]bool{}
	all := e.VariantNames()
	for _, f := range r.Findings {
		k := findingKey(f)
		if seen[k] {
			t.Errorf("reported twice: %s %s", f.Rule, f.Message)
		}
		seen[k] = true
		if len(f.Variants) == 0 || !slices.IsSortedFunc(f.Variants, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) }) {
			t.Errorf("%s: variants %v not in the file's order %v", f.Rule, f.Variants, all)
		}
		if f.Rule == "RS013" && !slices.Equal(f.Variants, all) {
			t.Errorf("RS013 shows in %v, want every variant %v", f.Variants, all)
		}
	}
	paths := map[string]bool{}
	for _, p := range r.Paths {
		k := pathString(p)
		if paths[k] {
			t.Errorf("path %s listed twice", k)
		}
		paths[k] = true
	}
}
