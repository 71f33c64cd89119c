package fit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ressim/ressim/internal/tomltext"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// IntoOptions tune Into.
type IntoOptions struct {
	// Rename maps a name in the telemetry (a service's or a client's) to
	// the experiment's name for it (--map FIT=EXP).
	Rename map[string]string
}

// Into puts the fitted load and latencies onto an existing experiment
// (the bytes of the file named intoName, for example one `ressim import`
// made): each experiment client matched by name (else by target) gets
// its rate; each service matched by name gets its pool size and the
// fitted own work in place of its service_time or its first work step
// (a service whose handler has no work step gets one before its first
// step); an error fault is not added. The experiment's calls, policies
// and faults stay as written: the telemetry's call graph does not
// replace them (warnings name the edges that differ). Replaced lines are
// kept as "# replaced by fit:" comments, and each new line names its
// series. The result is validated; warnings list what did not match.
func Into(m *Model, intoName string, into []byte, opt IntoOptions) (string, []string, error) {
	e, err := experiment.Parse(intoName, into)
	if err != nil {
		return "", nil, fmt.Errorf("fit: --into: %w", err)
	}
	name := func(n string) string {
		if r, ok := opt.Rename[n]; ok {
			return r
		}
		return n
	}
	fitted := map[string]*Service{}
	for i := range m.Services {
		fitted[name(m.Services[i].Name)] = &m.Services[i]
	}
	ed := tomltext.NewEditor(string(into), "fit")
	ed.Linked = [][]string{{"rate", "schedule", "users", "think_time", "interpolate"}, {"workers", "max_in_flight"}}
	var warnings []string
	usedSvc := map[string]bool{}
	cfg := &e.Model
	for i := range cfg.Services {
		sc := &cfg.Services[i]
		s, ok := fitted[sc.Name]
		if !ok {
			warnings = append(warnings, fmt.Sprintf("service %s: not in the telemetry; left as written", sc.Name))
			continue
		}
		usedSvc[sc.Name] = true
		head := e.KeyPos(fmt.Sprintf("service.%d.name", i)).Line
		var lines []tomltext.Line
		if sc.Mode == topology.Async {
			lines = append(lines, tomltext.Line{Key: "max_in_flight", Value: fmt.Sprint(int(s.Workers.V)), Comment: comment(s.Workers)})
		} else {
			lines = append(lines, tomltext.Line{Key: "workers", Value: fmt.Sprint(int(s.Workers.V)), Comment: comment(s.Workers)})
		}
		work := tomltext.Line{Key: "work", Value: distTOML(s.WorkParams()), Comment: workComment(s)}
		switch _, own := ownKey(e, fmt.Sprintf("service.%d", i), "service_time"); {
		case own:
			work.Key = "service_time"
			lines = append(lines, work)
			ed.Apply(head, lines)
		default:
			ed.Apply(head, lines)
			intoSteps(e, ed, i, sc, work, &warnings)
		}
		warnings = append(warnings, edgeWarnings(sc, s, name)...)
	}
	for i := range m.Services {
		if n := name(m.Services[i].Name); !usedSvc[n] {
			warnings = append(warnings, fmt.Sprintf("service %s in the telemetry is not in %s: left out (rename it with --map %s=NAME)", n, intoName, m.Services[i].Name))
		}
	}
	intoClients(m, e, ed, name, &warnings)
	out := ed.String()
	if _, err := experiment.Parse(intoName, []byte(out)); err != nil {
		return "", warnings, fmt.Errorf("fit: the merged experiment is invalid: %w", err)
	}
	return out, warnings, nil
}

// intoSteps puts the fitted work into each handler of service i: an
// operation's own service_time, else its first work step's work, else a
// new work step before its first step.
func intoSteps(e *experiment.Experiment, ed *tomltext.Editor, i int, sc *topology.ServiceConfig, work tomltext.Line, warnings *[]string) {
	handlers := []struct {
		path  string
		steps []topology.Step
	}{{fmt.Sprintf("service.%d", i), sc.Steps}}
	for k, op := range sc.Operations {
		path := fmt.Sprintf("service.%d.operation.%d", i, k)
		if line, ok := ownKey(e, path, "service_time"); ok {
			// The reader made it the operation's one work step, which
			// the file does not write: replace the line it does write.
			w := work
			w.Key = "service_time"
			ed.Apply(line, []tomltext.Line{w})
			continue
		}
		handlers = append(handlers, struct {
			path  string
			steps []topology.Step
		}{path, op.Steps})
	}
	if len(sc.Operations) > 1 {
		*warnings = append(*warnings, fmt.Sprintf("service %s: %d operations share one fitted own work (metrics are per service)", sc.Name, len(sc.Operations)))
	}
	for _, h := range handlers {
		if len(h.steps) == 0 {
			continue
		}
		done := false
		for k, st := range h.steps {
			if st.Kind == topology.WorkStep {
				w := work
				ed.Apply(e.KeyPos(fmt.Sprintf("%s.step.%d.work", h.path, k)).Line, []tomltext.Line{w})
				done = true
				break
			}
		}
		if done {
			continue
		}
		first := e.KeyPos(fmt.Sprintf("%s.step.0", h.path)).Line
		ind := strings.Repeat("  ", strings.Count(h.path, ".")-1+1)
		sub := "service.step"
		if strings.Contains(h.path, "operation") {
			sub = "service.operation.step"
		}
		ed.InsertBefore(first, []string{
			ind + "[[" + sub + "]]",
			ind + "work = " + work.Value + " " + work.Comment,
		})
	}
}

// ownKey returns the line of key in the table at path, if the file
// writes it there (KeyPos falls back to the table's own position, or its
// name's, for a key the table lacks).
func ownKey(e *experiment.Experiment, path, key string) (int, bool) {
	p := e.KeyPos(path + "." + key).Line
	return p, p != e.KeyPos(path).Line && p != e.KeyPos(path+".name").Line
}

// edgeWarnings names the calls the telemetry saw that the experiment's
// service does not make, and the reverse.
func edgeWarnings(sc *topology.ServiceConfig, s *Service, name func(string) string) []string {
	has := map[string]bool{}
	walk := func(steps []topology.Step) {
		for _, st := range steps {
			for _, c := range st.Calls {
				has[c.Service] = true
			}
		}
	}
	walk(sc.Steps)
	for _, op := range sc.Operations {
		walk(op.Steps)
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Calls {
		n := name(c.Callee)
		seen[n] = true
		if !has[n] {
			out = append(out, fmt.Sprintf("service %s: the telemetry shows %.2f calls per request to %s, which the experiment does not make", sc.Name, c.FanOut.V, n))
		}
	}
	var missing []string
	for n := range has {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		out = append(out, fmt.Sprintf("service %s: calls %s, which the telemetry does not show it calling", sc.Name, n))
	}
	return out
}

// intoClients sets each matched client's rate.
func intoClients(m *Model, e *experiment.Experiment, ed *tomltext.Editor, name func(string) string, warnings *[]string) {
	used := map[int]bool{}
	for i, cc := range e.Model.Clients {
		k := -1
		for j, c := range m.Clients {
			if !used[j] && name(c.Name) == cc.Name {
				k = j
				break
			}
		}
		if k < 0 {
			for j, c := range m.Clients {
				if !used[j] && name(c.Target) == cc.Target {
					k = j
					break
				}
			}
		}
		if k < 0 {
			*warnings = append(*warnings, fmt.Sprintf("client %s: no client in the telemetry sends to %s; left as written", cc.Name, cc.Target))
			continue
		}
		used[k] = true
		c := m.Clients[k]
		ed.Apply(e.KeyPos(fmt.Sprintf("client.%d.name", i)).Line, []tomltext.Line{{Key: "rate", Value: num(c.Rate.V), Comment: comment(c.Rate)}})
	}
	for j, c := range m.Clients {
		if !used[j] {
			*warnings = append(*warnings, fmt.Sprintf("client %s (%.3g req/s to %s) in the telemetry matches no client of the experiment: its load is left out", c.Name, c.Rate.V, c.Target))
		}
	}
}
