package fit

import "fmt"

// breakCycles removes the calls that close a cycle: ressim's services may
// not call themselves, directly or through others, while real traces
// show both (a service calling another of its endpoints, two services
// calling back and forth). The graph is walked depth first from the
// clients' targets, then from every other service in name order; a call
// to a service already on the walk's path is dropped, with a note on the
// caller. The dropped calls' time stays out of the caller's own work, so
// the twin's caller is faster than the real one by that much.
func breakCycles(m *Model) {
	idx := make(map[string]int, len(m.Services))
	for i := range m.Services {
		idx[m.Services[i].Name] = i
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]int, len(m.Services))
	var walk func(i int)
	walk = func(i int) {
		state[i] = onPath
		s := &m.Services[i]
		kept := s.Calls[:0]
		for _, c := range s.Calls {
			j, ok := idx[c.Callee]
			if ok && state[j] == onPath {
				s.Notes = append(s.Notes, fmt.Sprintf("its %.3g calls per request to %s close a call cycle, which ressim cannot run: they are left out", c.FanOut.V, c.Callee))
				continue
			}
			kept = append(kept, c)
			if ok && state[j] == unseen {
				walk(j)
			}
		}
		s.Calls = kept
		state[i] = done
	}
	for _, c := range m.Clients {
		if j, ok := idx[c.Target]; ok && state[j] == unseen {
			walk(j)
		}
	}
	for i := range m.Services {
		if state[i] == unseen {
			walk(i)
		}
	}
}
