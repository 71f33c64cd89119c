package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ressim/ressim/internal/tomltext"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// Merge attaches an import's settings to an existing experiment (into,
// the bytes of the file named intoName) by the mappings, and returns the
// merged file. The experiment's text is kept; in each mapped step (and
// mapped callee service) a policy the import sets (timeout, retry,
// retry_budget, bulkhead, breaker; outlier, balancer) replaces the one
// written there, whose lines stay as "# replaced by import:" comments,
// and each imported setting names its source file:line:col. Every
// imported call must be mapped, and every mapping must name an imported
// call and an existing call; all such mistakes are reported at once
// (type Errors for the unmapped ones, with their source positions). The
// merged file is validated.
func Merge(r *Result, intoName string, into []byte, maps []Mapping) (string, error) {
	e, err := experiment.Parse(intoName, into)
	if err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	ed := tomltext.NewEditor(string(into), "import")
	// A call hedges or retries, not both: an imported hedge replaces the
	// step's retry, and an imported retry its hedge.
	ed.Linked = [][]string{{"retry", "hedge"}}
	var problems []string
	mapped := map[string]bool{}
	done := map[string]string{} // step key -> mapping that set it
	svcDone := map[string]bool{}
	for _, m := range maps {
		calls := r.sk.callsNamed(m.Source)
		if len(calls) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no imported call named %q (imported: %s)", m.Pos, m.Source, strings.Join(r.sk.names(), ", ")))
			continue
		}
		mapped[m.Source] = true
		keys, err := stepKeys(&e.Model, m)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, k := range keys {
			if prev, ok := done[k]; ok {
				problems = append(problems, fmt.Sprintf("%s: %s:%s is already set by %s", m.Pos, m.Caller, m.Callee, prev))
				continue
			}
			done[k] = m.Pos
			ed.Apply(e.KeyPos(k+".call").Line, editLines(calls[0].settings))
		}
		if sts := r.sk.svc[calls[0].service]; len(sts) > 0 && !svcDone[m.Callee] {
			svcDone[m.Callee] = true
			ed.Apply(e.KeyPos(fmt.Sprintf("service.%d.name", serviceIndex(&e.Model, m.Callee))).Line, editLines(tableSettings(sts)))
		}
	}
	var unmapped Errors
	for _, c := range r.sk.calls {
		if !mapped[c.name()] {
			unmapped = append(unmapped, c.from.diag("%q is not mapped onto a call of %s: give --map %s=CALLER:CALLEE", c.name(), intoName, c.name()))
		}
	}
	if len(problems) > 0 || len(unmapped) > 0 {
		if len(unmapped) > 0 {
			problems = append(problems, unmapped.Error())
		}
		return "", fmt.Errorf("merge: %s", strings.Join(problems, "\n"))
	}
	out := fmt.Sprintf("# Merged by `ressim import %s --into %s` from %s: each imported setting\n# names its source file:line:col; the settings it replaced are kept as comments.\n",
		r.sk.kind, tomltext.Comment(intoName), tomltext.Files(r.sk.files)) + ed.String()
	if err := tooLarge("the merged experiment", out); err != nil {
		return "", fmt.Errorf("merge: %w", err)
	}
	if _, err := experiment.Parse(intoName, []byte(out)); err != nil {
		return "", fmt.Errorf("merge: the merged experiment is invalid: %w", err)
	}
	return out, nil
}

// stepKeys returns the key paths of the steps of m.Caller (its default
// handler and its operations) that call m.Callee.
func stepKeys(cfg *topology.Config, m Mapping) ([]string, error) {
	i := serviceIndex(cfg, m.Caller)
	if i < 0 {
		return nil, fmt.Errorf("%s: the experiment has no service %q", m.Pos, m.Caller)
	}
	s := &cfg.Services[i]
	base := "service." + strconv.Itoa(i)
	var keys []string
	collect := func(prefix string, steps []topology.Step) error {
		for k, st := range steps {
			for _, c := range st.Calls {
				if c.Service != m.Callee {
					continue
				}
				if st.Kind != topology.CallStep {
					return fmt.Errorf("%s: %s calls %s in a parallel step, which --into cannot edit", m.Pos, m.Caller, m.Callee)
				}
				keys = append(keys, prefix+".step."+strconv.Itoa(k))
			}
		}
		return nil
	}
	if err := collect(base, s.Steps); err != nil {
		return nil, err
	}
	for j, o := range s.Operations {
		if err := collect(base+".operation."+strconv.Itoa(j), o.Steps); err != nil {
			return nil, err
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: service %q has no step calling %q", m.Pos, m.Caller, m.Callee)
	}
	return keys, nil
}

func serviceIndex(cfg *topology.Config, name string) int {
	for i := range cfg.Services {
		if cfg.Services[i].Name == name {
			return i
		}
	}
	return -1
}

// callsNamed returns the imported calls with the given mapping name.
func (s *skeleton) callsNamed(name string) []callOut {
	var out []callOut
	for _, c := range s.calls {
		if c.name() == name {
			out = append(out, c)
		}
	}
	return out
}

// names lists the imported calls' mapping names.
func (s *skeleton) names() []string {
	var out []string
	for _, c := range s.calls {
		out = append(out, strconv.Quote(c.name()))
	}
	return out
}

// tableSettings drops a bare "{}" table whose keys are also set.
func tableSettings(sts []setting) []setting {
	var out []setting
	for _, st := range sts {
		if st.value != "{}" || !hasSubKey(sts, st.key) {
			out = append(out, st)
		}
	}
	return out
}

// editLines is settings as the editor's lines, each with its source.
func editLines(sts []setting) []tomltext.Line {
	out := make([]tomltext.Line, len(sts))
	for i, st := range sts {
		out[i] = tomltext.Line{Key: st.key, Value: st.value, Comment: st.from.comment()}
	}
	return out
}
