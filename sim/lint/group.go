package lint

import (
	"slices"
	"strconv"
	"strings"
)

// Group merges the findings, suppressed findings and call paths that
// every variant shows alike (the same rule, place and message, or the
// same path with the same amplification, and the same measurement) into
// one, listing the variants in Variants, in the file's order (base
// first). Without it a finding of the base that no variant changes is
// reported once per variant. Call it last, after Simulate and
// MapToSources, which work per variant.
func Group(r *Report) {
	rank := func(v string) int {
		if i := slices.Index(r.variants, v); i >= 0 {
			return i
		}
		return len(r.variants)
	}
	r.Findings = groupFindings(r.Findings, rank)
	sup := make([]Finding, len(r.Suppressed))
	for i, s := range r.Suppressed {
		sup[i] = s.Finding
		sup[i].reason = s.Reason
	}
	sup = groupFindings(sup, rank)
	r.Suppressed = r.Suppressed[:0]
	for _, f := range sup {
		reason := f.reason
		f.reason = ""
		r.Suppressed = append(r.Suppressed, Suppressed{f, reason})
	}
	r.Paths = groupPaths(r.Paths, rank)
}

// groupFindings merges findings equal but for their variant, keeping the
// first one's place in the list.
func groupFindings(fs []Finding, rank func(string) int) []Finding {
	return groupBy(fs, findingKey, func(f *Finding) (string, *[]string) { return f.Variant, &f.Variants }, rank)
}

// findingKey is everything of a finding but its variant.
func findingKey(f Finding) string {
	return strings.Join([]string{f.Rule, string(f.Severity), f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Col), f.Key, f.Message,
		measuredText(f.Measured), f.reason}, "\x00")
}

// groupPaths merges the paths equal but for their variant.
func groupPaths(ps []Path, rank func(string) int) []Path {
	key := func(p Path) string {
		return strings.Join(p.Hops, "\x00") + "\x01" + intsKey(p.Attempts) + "\x01" + boolsKey(p.Hedged) + "\x01" + strconv.Itoa(p.Amplification) + measuredText(p.Measured)
	}
	return groupBy(ps, key, func(p *Path) (string, *[]string) { return p.Variant, &p.Variants }, rank)
}

// groupBy merges the items of xs with equal keys into the first, whose
// variants (reached through variants: the item's own variant and its
// list) gather theirs, ordered by rank.
func groupBy[T any](xs []T, key func(T) string, variants func(*T) (string, *[]string), rank func(string) int) []T {
	out := xs[:0:0]
	at := map[string]int{} // looked up only: no iteration reaches the output
	for _, x := range xs {
		v, _ := variants(&x)
		if i, ok := at[key(x)]; ok {
			_, list := variants(&out[i])
			*list = append(*list, v)
			continue
		}
		at[key(x)] = len(out)
		_, list := variants(&x)
		*list = []string{v}
		out = append(out, x)
	}
	for i := range out {
		_, list := variants(&out[i])
		slices.SortStableFunc(*list, func(a, b string) int { return rank(a) - rank(b) })
	}
	return out
}

func intsKey(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// boolsKey is a path's hedged layers as a key: "" when none hedges.
func boolsKey(bs []bool) string {
	s := make([]byte, len(bs))
	for i, b := range bs {
		s[i] = '0'
		if b {
			s[i] = '1'
		}
	}
	return string(s)
}

// variantLabel is a finding's or path's variants as the text report
// writes them: "base, no-breaker".
func variantLabel(variant string, variants []string) string {
	if len(variants) == 0 {
		return variant
	}
	return strings.Join(variants, ", ")
}
