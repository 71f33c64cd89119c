package lint

import (
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// AllVariants, as Check's variant, lints the base and every variant.
const AllVariants = "*"

// Check lints the experiment e, whose file's bytes are src (for the
// lint-ignore comments; nil means none), for the named variant: "base"
// (or ""), a [[variant]] name, or AllVariants. An unknown variant is an
// error. Findings are sorted by position; identical findings of several
// variants are each reported with their variant.
func Check(e *experiment.Experiment, src []byte, variant string) (*Report, error) {
	type model struct {
		name string
		cfg  topology.Config
	}
	var models []model
	if variant == AllVariants {
		for _, n := range e.VariantNames() {
			cfg, _ := e.VariantModel(n)
			models = append(models, model{n, cfg})
		}
	} else {
		cfg, err := e.VariantModel(variant)
		if err != nil {
			return nil, fmt.Errorf("lint %s: %w", e.File, err)
		}
		if variant == "" {
			variant = "base"
		}
		models = append(models, model{variant, cfg})
	}
	rep := &Report{File: e.File, Findings: []Finding{}, Suppressed: []Suppressed{}, Paths: []Path{}}
	for _, m := range models {
		rep.variants = append(rep.variants, m.name)
	}
	igs := scanIgnores(src)
	for _, m := range models {
		fs, paths := checkModel(&m.cfg, m.name)
		rep.Paths = append(rep.Paths, paths...)
		for _, f := range fs {
			place(e, &f)
			if reason, ok := covers(igs, f.Rule, f.Line); ok {
				rep.Suppressed = append(rep.Suppressed, Suppressed{f, reason})
				continue
			}
			rep.Findings = append(rep.Findings, f)
		}
	}
	rep.Findings = append(rep.Findings, unreasoned(e.File, igs)...)
	sortFindings(rep.Findings)
	return rep, nil
}

// unreasoned reports the lint-ignore comments that give no reason
// (RS000): they silence nothing.
func unreasoned(file string, igs map[int]ignore) []Finding {
	var out []Finding
	for line := 1; len(out) < len(igs) && line <= maxLine(igs); line++ {
		ig, ok := igs[line]
		if !ok || ig.reason != "" {
			continue
		}
		out = append(out, Finding{Rule: "RS000", Severity: Warning, File: file, Line: ig.line, Col: ig.col,
			Variant: "base", Variants: []string{"base"}, Message: "lint-ignore without a reason (write `because ...`): it silences nothing"})
	}
	return out
}

func maxLine(igs map[int]ignore) int {
	m := 0
	for l := range igs {
		m = max(m, l)
	}
	return m
}
