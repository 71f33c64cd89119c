package fit

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
)

// safeNames renames every client and service whose telemetry name is not
// a valid ressim name (1-64 letters, digits, '-', '_', '.'): other
// characters become '_', long names are cut, and a clash gets a numeric
// suffix. Calls and targets follow; each rename is a note.
func safeNames(m *Model) {
	taken := map[string]bool{}
	for _, s := range m.Services {
		if experiment.ValidName(s.Name) {
			taken[s.Name] = true
		}
	}
	for _, c := range m.Clients {
		if experiment.ValidName(c.Name) {
			taken[c.Name] = true
		}
	}
	ren := map[string]string{}
	fix := func(n string) string {
		if experiment.ValidName(n) {
			return n
		}
		if r, ok := ren[n]; ok {
			return r
		}
		b := []byte(n)
		for i, c := range b {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
				b[i] = '_'
			}
		}
		base := strings.Trim(string(b), ".")
		if len(base) > 56 {
			base = base[:56]
		}
		if base == "" {
			base = "service"
		}
		r := base
		for k := 2; taken[r] || !experiment.ValidName(r); k++ {
			r = fmt.Sprintf("%s-%d", base, k)
		}
		taken[r] = true
		ren[n] = r
		m.Notes = append(m.Notes, fmt.Sprintf("renamed %q to %s: not a valid ressim name", n, r))
		return r
	}
	for i := range m.Services {
		s := &m.Services[i]
		s.Name = fix(s.Name)
		for k := range s.Calls {
			s.Calls[k].Callee = fix(s.Calls[k].Callee)
			if s.Calls[k].Operation != "" && !experiment.ValidName(s.Calls[k].Operation) {
				s.Calls[k].Operation = ""
			}
		}
	}
	for i := range m.Clients {
		c := &m.Clients[i]
		c.Name = fix(c.Name)
		c.Target = fix(c.Target)
		c.Operation = ""
	}
}
