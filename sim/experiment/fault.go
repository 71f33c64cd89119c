package experiment

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

var faultKeys = []string{"kind", "target", "instance", "start", "end", "duration", "at",
	"multiply", "add", "rate", "instances", "workers", "label", "caller"}

// fault reads a [[fault]] block.
func (r *reader) fault(t *table, m *topology.Config, services, clients map[string]bool) (topology.FaultConfig, bool) {
	f := topology.FaultConfig{Instance: -1}
	ok := true
	kindName, kok := t.str("kind", true)
	kind, known := topology.ParseFaultKind(kindName)
	if kok && !known {
		r.errorf(t.key("kind"), "unknown fault kind %q; expected one of: %s", kindName, strings.Join(topology.FaultKindNames(), ", "))
	}
	if !kok || !known {
		t.done(faultKeys...)
		return f, false
	}
	f.Kind = kind
	f.Label, _ = t.str("label", false)
	target, tok := t.str("target", true)
	f.Target = target
	if tok {
		if kind == topology.LoadFault && !clients[target] {
			r.errorf(t.key("target"), "a load fault targets a client; no client named %q is declared", target)
			ok = false
		}
		if kind != topology.LoadFault && !services[target] {
			r.errorf(t.key("target"), "no service named %q is declared", target)
			ok = false
		}
	} else {
		ok = false
	}
	// When: start and end (or duration); a cache flush happens at one instant.
	if kind == topology.CacheFlushFault {
		at, aok := t.duration("at", true, 0)
		f.Start, f.End = at, at
		ok = ok && aok
	} else {
		start, sok := t.duration("start", true, 0)
		f.Start = start
		ok = ok && sok
		switch {
		case t.has("end") && t.has("duration"):
			t.get("duration")
			t.get("end")
			r.errorf(t.key("duration"), "give end or duration, not both")
			ok = false
		case t.has("duration"):
			d, dok := t.duration("duration", true, 1)
			f.End = start + d
			ok = ok && dok
		default:
			end, eok := t.duration("end", true, 0)
			f.End = end
			if eok && sok && end <= start {
				r.errorf(t.key("end"), "must be after start (%v), got %v", start, end)
				ok = false
			}
			ok = ok && eok
		}
	}
	if m.Duration > 0 && f.Start >= m.Duration {
		r.errorf(t.key("start"), "the fault starts at %v, after the run ends (%v)", f.Start, m.Duration)
		ok = false
	}
	if t.has("instance") {
		if kind == topology.LoadFault {
			t.get("instance")
			r.errorf(t.key("instance"), "a load fault targets a client, which has no instances")
			ok = false
		} else if n, iok := t.integer("instance", false, 0, topology.MaxInstances); iok {
			f.Instance = int(n)
			for _, s := range m.Services {
				if s.Name == target && f.Instance >= max(s.Instances, 1) {
					r.errorf(t.key("instance"), "service %q has %d instance(s); instances count from 0", target, max(s.Instances, 1))
					ok = false
				}
			}
		} else {
			ok = false
		}
	}
	need := func(k string) {
		if !t.has(k) {
			r.errorf(t.path, "a %s fault needs %q", kindName, k)
			ok = false
		}
	}
	switch kind {
	case topology.LatencyFault:
		if !t.has("multiply") && !t.has("add") {
			r.errorf(t.path, "a latency fault needs multiply = N or add = \"duration\" (or both)")
			ok = false
		}
		if v, vok := t.number("multiply", false, 0, 1e6, true, "factor on local work"); vok {
			f.Multiply = v
		} else if t.has("multiply") {
			ok = false
		}
		if a, aok := t.duration("add", false, 0); aok {
			f.Add = a
		} else if t.has("add") {
			ok = false
		}
	case topology.LoadFault:
		need("multiply")
		if v, vok := t.number("multiply", false, 0, 1e6, false, "factor on the client's rate"); vok {
			f.Multiply = v
		} else if t.has("multiply") {
			ok = false
		}
	case topology.ErrorFault:
		need("rate")
		if v, vok := t.number("rate", false, 0, 1, false, "probability a response fails"); vok {
			f.Rate = v
		} else if t.has("rate") {
			ok = false
		}
	case topology.CrashFault:
		f.Count = 1
		if n, nok := t.integer("instances", false, 1, topology.MaxInstances); nok {
			f.Count = int(n)
		} else if t.has("instances") {
			ok = false
		}
	case topology.WorkersFault:
		need("workers")
		if n, nok := t.integer("workers", false, 1, topology.MaxWorkers); nok {
			f.Count = int(n)
		} else if t.has("workers") {
			ok = false
		}
	case topology.KillSwitchFault:
		if c, cok := t.str("caller", false); cok {
			f.Caller = c
			if msg := unknownCaller(c, services, clients); msg != "" {
				r.errorf(t.key("caller"), "%s", msg)
				ok = false
			}
		} else if t.has("caller") {
			ok = false
		}
	case topology.CacheFlushFault:
		for _, s := range m.Services {
			if s.Name == target && s.Cache == nil {
				r.errorf(t.key("target"), "service %q has no [service.cache] to flush", target)
				ok = false
			}
		}
	}
	// Keys that do not apply to this kind are errors too.
	applies := map[topology.FaultKind][]string{
		topology.LatencyFault:    {"multiply", "add"},
		topology.ErrorFault:      {"rate"},
		topology.CrashFault:      {"instances"},
		topology.WorkersFault:    {"workers"},
		topology.FreezeFault:     {},
		topology.LoadFault:       {"multiply"},
		topology.CacheFlushFault: {},
		topology.KillSwitchFault: {"caller"},
	}
	keys := []string{"kind", "target", "label"}
	if kind == topology.CacheFlushFault {
		keys = append(keys, "at")
	} else {
		keys = append(keys, "start", "end", "duration")
	}
	if kind != topology.LoadFault {
		keys = append(keys, "instance")
	}
	keys = append(keys, applies[kind]...)
	t.anyKeys = faultKeys
	t.done(keys...)
	return f, ok
}

// unknownCaller checks that a kill switch's caller names a declared
// service, or a declared client as "client:NAME"; it returns the problem.
func unknownCaller(c string, services, clients map[string]bool) string {
	if name, ok := strings.CutPrefix(c, "client:"); ok {
		if !clients[name] {
			return fmt.Sprintf("no client named %q is declared", name)
		}
		return ""
	}
	if !services[c] {
		return fmt.Sprintf("no service named %q is declared (a client is written \"client:NAME\")", c)
	}
	return ""
}
