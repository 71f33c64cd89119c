package experiment

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

// actionSet reads an action's set table: one change per key, in key
// order, each to a path of MidRunPaths. Each is checked by reading base
// with the change applied, as a variant is, so a value is refused in the
// same words as in the file.
func (r *reader) actionSet(t *table, base map[string]any) ([]topology.ActionConfig, bool) {
	st, ok := t.sub("set", true)
	if !ok {
		return nil, false
	}
	keys := sortedKeys(st.m)
	if len(keys) == 0 {
		r.errorf(t.key("set"), "set is empty: give at least one \"path\" = value")
		return nil, false
	}
	var out []topology.ActionConfig
	for _, k := range keys {
		v, _ := st.get(k)
		if base == nil {
			continue // the base has problems: they would repeat here
		}
		doc := deepCopy(base).(map[string]any)
		if err := setPath(doc, k, deepCopy(v)); err != nil {
			r.errorf(st.key(k), "set %q: %v", k, err)
			ok = false
			continue
		}
		segs := strings.Split(indexPath(doc, k), ".")
		if !midRun(segs) {
			r.errorf(st.key(k), "set %q: this setting cannot change mid-run; an action may set: %s", k, strings.Join(MidRunPaths, ", "))
			ok = false
			continue
		}
		sub := &reader{file: r.file, pos: r.pos}
		x := sub.experiment(sub.root(doc))
		for _, err := range sub.errs {
			r.errorf(st.key(k), "set %q = %s: %s: %s", k, formatValue(v), err.Key, err.Msg)
		}
		if len(sub.errs) > 0 {
			ok = false
			continue
		}
		if err := x.Model.Validate(); err != nil {
			r.errorf(st.key(k), "set %q = %s: %v", k, formatValue(v), err)
			ok = false
			continue
		}
		a, err := midRunAction(&x.Model, segs)
		if err == nil {
			// Told at the set key, not at 1:1 by the model's check.
			if err = x.Model.ValidateAction(a); err != nil {
				err = errors.New(strings.TrimPrefix(err.Error(), topology.ErrConfig.Error()+": "))
			}
		}
		if err != nil {
			r.errorf(st.key(k), "set %q = %s: %v", k, formatValue(v), err)
			ok = false
			continue
		}
		a.Subject = k
		out = append(out, a)
	}
	return out, ok
}

// midRun reports whether segs, a path with its elements as indexes,
// matches one of MidRunPaths.
func midRun(segs []string) bool {
	for _, p := range MidRunPaths {
		ps := strings.Split(p, ".")
		if len(ps) != len(segs) {
			continue
		}
		match := true
		for i := range ps {
			if ps[i] == "NAME" || ps[i] == "N" {
				if !isDigits(segs[i]) {
					match = false
				}
			} else if ps[i] != segs[i] {
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// midRunAction makes the action that sets segs (a path of MidRunPaths,
// elements as indexes) to its value in m, the model read with it set.
func midRunAction(m *topology.Config, segs []string) (topology.ActionConfig, error) {
	idx := func(i int) int { n, _ := strconv.Atoi(segs[i]); return n }
	var a topology.ActionConfig
	switch segs[0] {
	case "client":
		i := idx(1)
		if i >= len(m.Clients) {
			return a, fmt.Errorf("no client %d", i)
		}
		c := &m.Clients[i]
		if segs[2] == "rate" {
			return topology.ActionConfig{Kind: topology.ActionClientRate, Client: c.Name, Value: c.Rate}, nil
		}
		return topology.ActionConfig{Kind: topology.ActionRetryAttempts, Call: topology.CallRef{Client: c.Name}, Int: c.Call.Retry.MaxAttempts}, nil
	case "service":
		i := idx(1)
		if i >= len(m.Services) {
			return a, fmt.Errorf("no service %d", i)
		}
		s := &m.Services[i]
		switch segs[2] {
		case "workers":
			return topology.ActionConfig{Kind: topology.ActionWorkers, Service: s.Name, Int: s.Workers}, nil
		case "max_in_flight":
			return topology.ActionConfig{Kind: topology.ActionWorkers, Service: s.Name, Int: s.MaxInFlight}, nil
		case "queue_capacity":
			return topology.ActionConfig{Kind: topology.ActionQueueCapacity, Service: s.Name, Int: s.QueueCapacity}, nil
		}
		ref := topology.CallRef{Service: s.Name}
		steps, rest := s.Steps, segs[2:]
		if rest[0] == "operation" {
			j := idx(3)
			if j >= len(s.Operations) {
				return a, fmt.Errorf("no operation %d", j)
			}
			ref.Operation = s.Operations[j].Name
			steps, rest = s.Operations[j].Steps, segs[4:]
		}
		// rest: step N [parallel|choose N] retry attempts
		ref.Step, _ = strconv.Atoi(rest[1])
		if len(rest) == 6 {
			ref.Call, _ = strconv.Atoi(rest[3])
		}
		if ref.Step >= len(steps) || ref.Call >= len(steps[ref.Step].Calls) {
			return a, fmt.Errorf("no call at %s", strings.Join(segs, "."))
		}
		if len(rest) == 4 && steps[ref.Step].Kind != topology.CallStep {
			return a, fmt.Errorf("step %d is not a single call: name the call, step.%d.parallel.N or step.%d.choose.N", ref.Step, ref.Step, ref.Step)
		}
		return topology.ActionConfig{Kind: topology.ActionRetryAttempts, Call: ref, Int: steps[ref.Step].Calls[ref.Call].Policy.Retry.MaxAttempts}, nil
	}
	return a, fmt.Errorf("not a mid-run setting")
}
