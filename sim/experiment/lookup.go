package experiment

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/internal/textdist"
	"github.com/ressim/ressim/sim/topology"
)

// VariantNames returns "base" followed by the [[variant]] names, in file
// order: the names compare reports and VariantModel accepts.
func (e *Experiment) VariantNames() []string {
	names := []string{"base"}
	for _, v := range e.Variants {
		names = append(names, v.Name)
	}
	return names
}

// VariantModel returns the model of the named variant ("base" or "" for
// the base), exactly as compare runs it. An unknown name is an error that
// lists the names and suggests the closest.
func (e *Experiment) VariantModel(name string) (topology.Config, error) {
	if name == "" || name == "base" {
		return e.Model, nil
	}
	for _, v := range e.Variants {
		if v.Name == name {
			return v.Model, nil
		}
	}
	return topology.Config{}, e.unknownVariant(name)
}

// unknownVariant is the error for a variant name the file does not declare.
func (e *Experiment) unknownVariant(name string) error {
	names := e.VariantNames()
	hint := ""
	if c := nearestName(name, names); c != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", c)
	}
	return fmt.Errorf("no variant named %q in %s%s; the variants are: %s", name, e.File, hint, strings.Join(names, ", "))
}

// nearestName returns the candidate closest to s by edit distance, if it
// is within a third of s's length, rounded up (at least 2 edits): variant
// names are long and hyphenated, so "no-retry" should find "no-retries"
// (3 edits).
func nearestName(s string, candidates []string) string {
	return textdist.Nearest(s, candidates, max(2, (len(s)+2)/3))
}
