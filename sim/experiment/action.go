package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/topology"
)

// actionKeys are every key an [[action]] may hold, whatever its kind.
var actionKeys = []string{"at", "label", "set", "kind", "target", "caller", "state", "share", "count"}

// ActionKinds are the operator moves an [[action]]'s kind names, in
// documentation order; ActionKindsUnsupported those it names but ressim
// does not model yet (none now).
var (
	ActionKinds            = []string{"kill_switch", "force_breaker", "shed", "instances"}
	ActionKindsUnsupported []string
)

// MidRunPaths are the setting paths an [[action]]'s set may change,
// written with NAME for an element of an array of tables (chosen, as in
// a variant's path, by its name or its index): the settings that make
// sense mid-run. docs/experiment-format.md states what each does to work
// in flight (TestMidRunPathsDocumented).
var MidRunPaths = []string{
	"client.NAME.rate",
	"client.NAME.retry.attempts",
	"service.NAME.workers",
	"service.NAME.max_in_flight",
	"service.NAME.queue_capacity",
	"service.NAME.step.N.retry.attempts",
	"service.NAME.step.N.parallel.N.retry.attempts",
	"service.NAME.step.N.choose.N.retry.attempts",
	"service.NAME.operation.NAME.step.N.retry.attempts",
	"service.NAME.operation.NAME.step.N.parallel.N.retry.attempts",
	"service.NAME.operation.NAME.step.N.choose.N.retry.attempts",
}

// actions reads the [[action]] blocks into m.Actions. doc is the whole
// document; checkSets says whether the base is valid so far, so that
// each set can be checked by reading the document with it applied.
func (r *reader) actions(doc *table, m *topology.Config, checkSets bool) {
	tables := doc.tables("action")
	if len(tables) == 0 {
		return
	}
	var base map[string]any
	if checkSets {
		base = deepCopy(doc.m).(map[string]any)
		delete(base, "action")
	}
	for _, t := range tables {
		r.action(t, m, base)
	}
}

// action reads one [[action]]; base, if not nil, is the document without
// its actions, against which a set is checked.
func (r *reader) action(t *table, m *topology.Config, base map[string]any) {
	t.anyKeys = actionKeys
	at, aok := t.duration("at", true, 0)
	if aok && m.Duration > 0 && at >= m.Duration {
		r.errorf(t.key("at"), "the action is at %v, not before the run ends (%v)", at, m.Duration)
		aok = false
	}
	label, _ := t.str("label", false)
	acts, ok := r.actionBody(t, m, base, []string{"at", "label"})
	if !ok || !aok {
		return
	}
	for _, a := range acts {
		a.At, a.Label = at, label
		m.Actions = append(m.Actions, a)
	}
}

// actionBodyKeys are the keys of what an action does, whatever its
// kind: an [[action]] without at and label, a [[gameday.move]] without
// label and help.
var actionBodyKeys = []string{"set", "kind", "target", "caller", "state", "share", "count"}

// actionBody reads what an action does: its set (one action per path) or
// its kind and that kind's keys, at time 0 without a label. head are the
// block's other keys, read by the caller, named in messages about unknown
// keys.
func (r *reader) actionBody(t *table, m *topology.Config, base map[string]any, head []string) ([]topology.ActionConfig, bool) {
	keys := func(k ...string) []string { return slices.Concat(head, k) }
	hasSet, hasKind := t.has("set"), t.has("kind")
	switch {
	case hasSet && hasKind:
		t.get("set")
		t.get("kind")
		r.errorf(t.path, "an action has either set = { \"path\" = value } or kind, not both")
		t.done(keys(actionBodyKeys...)...)
		return nil, false
	case !hasSet && !hasKind:
		r.errorf(t.path, "an action needs set = { \"path\" = value } (a setting) or kind (an operator move: %s)", strings.Join(ActionKinds, ", "))
		t.done(keys(actionBodyKeys...)...)
		return nil, false
	case hasSet:
		acts, ok := r.actionSet(t, base)
		t.done(keys("set")...)
		return acts, ok
	}
	a, ok := r.actionKind(t, m, keys)
	return []topology.ActionConfig{a}, ok
}

// actionKind reads an action's kind and the keys of that kind: an
// operator move that is not a setting. keys adds the block's other keys
// to a kind's, for done.
func (r *reader) actionKind(t *table, m *topology.Config, keys func(...string) []string) (topology.ActionConfig, bool) {
	kind, kok := t.str("kind", true)
	var a topology.ActionConfig
	ok := kok
	switch {
	case !kok:
	case kind == "kill_switch", kind == "force_breaker":
		return r.callAction(t, m, kind, keys)
	case kind == "instances":
		return r.instancesAction(t, m, keys)
	case kind == "shed":
		a.Kind = topology.ActionShed
		a.Client, _ = t.str("target", true)
		share, sok := t.number("share", true, 0, 1, false, "share of the client's new requests refused")
		a.Value = share
		ok = ok && sok
		t.done(keys("kind", "target", "share")...)
		if a.Client == "" {
			ok = false
		} else if !r.hasClient(m, a.Client) {
			r.errorf(t.key("target"), "unknown client %q", a.Client)
			ok = false
		}
		return a, ok
	case contains(ActionKindsUnsupported, kind):
		r.errorf(t.key("kind"), "action kind %q is not yet supported (ressim models: set = { ... }, %s)", kind, strings.Join(ActionKinds, ", "))
	default:
		hint := ""
		if s := closest(kind, ActionKinds); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		r.errorf(t.key("kind"), "unknown action kind %q%s; expected one of: %s", kind, hint, strings.Join(ActionKinds, ", "))
	}
	t.done(keys(actionBodyKeys...)...)
	return a, false
}

// callAction reads a kill_switch or force_breaker action: target,
// caller, state.
func (r *reader) callAction(t *table, m *topology.Config, kind string, keys func(...string) []string) (topology.ActionConfig, bool) {
	a := topology.ActionConfig{Kind: topology.ActionKillSwitch}
	if kind == "force_breaker" {
		a.Kind = topology.ActionForceBreaker
	}
	ok := true
	a.Service, _ = t.str("target", true)
	a.Caller, _ = t.str("caller", false)
	st, sok := t.str("state", true)
	switch {
	case !sok:
		ok = false
	case kind == "kill_switch" && (st == "on" || st == "off"):
		a.On = st == "on"
	case kind == "kill_switch":
		r.errorf(t.key("state"), "a kill switch's state is \"on\" or \"off\", got %q", st)
		ok = false
	case st == "open":
		a.Breaker = breaker.ForcedOpen
	case st == "closed":
		a.Breaker = breaker.ForcedClosed
	case st == "auto":
		a.Breaker = breaker.Auto
	default:
		r.errorf(t.key("state"), "a forced breaker's state is \"open\", \"closed\" or \"auto\" (back to its state machine), got %q", st)
		ok = false
	}
	t.done(keys("kind", "target", "caller", "state")...)
	if a.Service == "" {
		ok = false
	} else if !r.hasService(m, a.Service) {
		r.errorf(t.key("target"), "unknown service %q", a.Service)
		ok = false
	}
	if a.Caller != "" && !r.hasCaller(m, a.Caller) {
		r.errorf(t.key("caller"), "unknown caller %q: a service's name or client:NAME", a.Caller)
		ok = false
	}
	if ok && a.Kind == topology.ActionForceBreaker && m.BreakerCalls(a.Service, a.Caller) == 0 {
		from := ""
		if a.Caller != "" {
			from = " from " + a.Caller
		}
		r.errorf(t.key("target"), "no call to %q%s has a breaker: force_breaker forces the breakers of calls that have one (breaker = { ... })", a.Service, from)
		ok = false
	}
	return a, ok
}

// instancesAction reads an instances action: target, count, at most the
// service's declared instances.
func (r *reader) instancesAction(t *table, m *topology.Config, keys func(...string) []string) (topology.ActionConfig, bool) {
	a := topology.ActionConfig{Kind: topology.ActionInstances}
	a.Service, _ = t.str("target", true)
	n, ok := t.integer("count", true, 0, topology.MaxInstances)
	a.Int = int(n)
	t.done(keys("kind", "target", "count")...)
	if a.Service == "" {
		return a, false
	}
	i := slices.IndexFunc(m.Services, func(s topology.ServiceConfig) bool { return s.Name == a.Service })
	if i < 0 {
		r.errorf(t.key("target"), "unknown service %q", a.Service)
		return a, false
	}
	if decl := max(m.Services[i].Instances, 1); ok && a.Int > decl {
		r.errorf(t.key("count"), "service %q declares %d instance(s): an action can take instances out of rotation and bring them back, not add instances the file does not declare (their per-instance state is allocated at the start); raise the service's instances and start with fewer in rotation, got %d", a.Service, decl, a.Int)
		ok = false
	}
	return a, ok
}

func (r *reader) hasService(m *topology.Config, name string) bool {
	for _, s := range m.Services {
		if s.Name == name {
			return true
		}
	}
	return false
}

func (r *reader) hasClient(m *topology.Config, name string) bool {
	for _, c := range m.Clients {
		if c.Name == name {
			return true
		}
	}
	return false
}

// hasCaller reports whether name is a service or "client:NAME" of m.
func (r *reader) hasCaller(m *topology.Config, name string) bool {
	if c, ok := strings.CutPrefix(name, "client:"); ok {
		return r.hasClient(m, c)
	}
	return r.hasService(m, name)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
