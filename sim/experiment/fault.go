package experiment

import (
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

var faultKeys = []string{"kind", "target", "instance", "start", "end", "duration", "at",
	"multiply", "add", "rate", "instances", "workers", "label", "caller", "sticky"}

// stickyKeys are a fault's sticky table's keys.
var stickyKeys = []string{"by", "share", "users", "keys"}

// faultCtx is what a fault's readers need besides its table.
type faultCtx struct {
	m                 *topology.Config
	services, clients map[string]bool
	kindName, target  string
}

// faultKindSpec is one fault kind's own keys (besides kind, target, label,
// the timing keys and instance) and the function that reads them into f;
// read reports false after an error.
type faultKindSpec struct {
	keys []string
	read func(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool
}

// faultKinds is the table of fault kinds.
var faultKinds = map[topology.FaultKind]faultKindSpec{
	topology.LatencyFault:    {[]string{"multiply", "add", "sticky"}, readLatencyFault},
	topology.ErrorFault:      {[]string{"rate", "sticky"}, readErrorFault},
	topology.CrashFault:      {[]string{"instances"}, readCrashFault},
	topology.WorkersFault:    {[]string{"workers"}, readWorkersFault},
	topology.FreezeFault:     {nil, nil},
	topology.LoadFault:       {[]string{"multiply"}, readLoadFault},
	topology.CacheFlushFault: {nil, readCacheFlushFault},
	topology.KillSwitchFault: {[]string{"caller"}, readKillSwitchFault},
}

// fault reads a [[fault]] block.
func (r *reader) fault(t *table, m *topology.Config, services, clients map[string]bool) (topology.FaultConfig, bool) {
	f := topology.FaultConfig{Instance: -1}
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
	c := &faultCtx{m: m, services: services, clients: clients, kindName: kindName}
	ok := r.faultTarget(t, &f, c)
	ok = r.faultWhen(t, &f) && ok
	if m.Duration > 0 && f.Start >= m.Duration {
		r.errorf(t.key("start"), "the fault starts at %v, after the run ends (%v)", f.Start, m.Duration)
		ok = false
	}
	ok = r.faultInstance(t, &f, c) && ok
	spec := faultKinds[kind]
	if spec.read != nil {
		ok = spec.read(r, t, &f, c) && ok
	}
	// Keys that do not apply to this kind are errors too.
	keys := []string{"kind", "target", "label"}
	if kind == topology.CacheFlushFault {
		keys = append(keys, "at")
	} else {
		keys = append(keys, "start", "end", "duration")
	}
	if kind != topology.LoadFault {
		keys = append(keys, "instance")
	}
	keys = append(keys, spec.keys...)
	t.anyKeys = faultKeys
	t.done(keys...)
	return f, ok
}

// faultTarget reads the target: a client for a load fault, a service
// otherwise.
func (r *reader) faultTarget(t *table, f *topology.FaultConfig, c *faultCtx) bool {
	target, ok := t.str("target", true)
	f.Target = target
	c.target = target
	if !ok {
		return false
	}
	if f.Kind == topology.LoadFault && !c.clients[target] {
		r.errorf(t.key("target"), "a load fault targets a client; no client named %q is declared", target)
		ok = false
	}
	if f.Kind != topology.LoadFault && !c.services[target] {
		r.errorf(t.key("target"), "no service named %q is declared", target)
		ok = false
	}
	return ok
}

// faultWhen reads start and end (or duration); a cache flush happens at
// one instant, "at".
func (r *reader) faultWhen(t *table, f *topology.FaultConfig) bool {
	if f.Kind == topology.CacheFlushFault {
		at, aok := t.duration("at", true, 0)
		f.Start, f.End = at, at
		return aok
	}
	start, sok := t.duration("start", true, 0)
	f.Start = start
	ok := sok
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
	return ok
}

// faultInstance reads the optional instance of the target service.
func (r *reader) faultInstance(t *table, f *topology.FaultConfig, c *faultCtx) bool {
	if !t.has("instance") {
		return true
	}
	if f.Kind == topology.LoadFault {
		t.get("instance")
		r.errorf(t.key("instance"), "a load fault targets a client, which has no instances")
		return false
	}
	n, iok := t.intIn("instance", false, topology.SettingFaultInstance.Range())
	if !iok {
		return false
	}
	f.Instance = int(n)
	ok := true
	for _, s := range c.m.Services {
		if s.Name == c.target && f.Instance >= max(s.Instances, 1) {
			r.errorf(t.key("instance"), "service %q has %d instance(s); instances count from 0", c.target, max(s.Instances, 1))
			ok = false
		}
	}
	return ok
}

// needFaultKey reports a missing key the fault kind requires.
func (r *reader) needFaultKey(t *table, c *faultCtx, k string) bool {
	if !t.has(k) {
		r.errorf(t.path, "a %s fault needs %q", c.kindName, k)
		return false
	}
	return true
}

func readLatencyFault(r *reader, t *table, f *topology.FaultConfig, _ *faultCtx) bool {
	ok := true
	if !t.has("multiply") && !t.has("add") {
		r.errorf(t.path, "a latency fault needs multiply = N or add = \"duration\" (or both)")
		ok = false
	}
	// A fault that only adds latency multiplies by 1: the model refuses
	// 0, as the file does (topology.FaultConfig.Multiply).
	f.Multiply = 1
	rangedNum(t, "multiply", topology.SettingLatencyMultiply.Range(), &f.Multiply, &ok)
	if a, aok := t.duration("add", false, 0); aok {
		f.Add = a
	} else if t.has("add") {
		ok = false
	}
	return r.faultSticky(t, f) && ok
}

func readLoadFault(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool {
	ok := r.needFaultKey(t, c, "multiply")
	rangedNum(t, "multiply", topology.SettingLoadMultiply.Range(), &f.Multiply, &ok)
	return ok
}

func readErrorFault(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool {
	ok := r.needFaultKey(t, c, "rate")
	rangedNum(t, "rate", topology.SettingErrorRate.Range(), &f.Rate, &ok)
	return r.faultSticky(t, f) && ok
}

// faultSticky reads an error or latency fault's optional sticky table:
// by (required), share (required), and users or keys, for by = "user" or
// "key" only.
func (r *reader) faultSticky(t *table, f *topology.FaultConfig) bool {
	st, has := t.sub("sticky", false)
	if !has {
		return !t.has("sticky")
	}
	sc := &topology.StickyConfig{}
	b, byOK := st.oneOf("by", topology.StickyByNames())
	if !st.has("by") {
		r.errorf(st.path, "a sticky fault needs by: one of %s", strings.Join(topology.StickyByNames(), ", "))
	}
	sc.By = topology.StickyBy(b)
	ok := byOK
	if v, good := st.ranged("share", true, topology.SettingStickyShare.Range()); good {
		sc.Share = v
	} else {
		ok = false
	}
	keys := []string{"by", "share"}
	switch {
	case !byOK:
		keys = stickyKeys // which apply depends on by, which is wrong
		st.get("users")
		st.get("keys")
	case sc.By == topology.StickyByUser:
		keys = append(keys, "users")
		rangedInt(st, "users", topology.SettingStickyUsers.Range(), &sc.Users, &ok)
	case sc.By == topology.StickyByKey:
		keys = append(keys, "keys")
		rangedInt(st, "keys", topology.SettingStickyKeys.Range(), &sc.Keys, &ok)
	}
	st.anyKeys = stickyKeys
	st.done(keys...)
	f.Sticky = sc
	return ok
}

func readCrashFault(_ *reader, t *table, f *topology.FaultConfig, _ *faultCtx) (ok bool) {
	f.Count, ok = 1, true
	rangedInt(t, "instances", topology.SettingCrashInstances.Range(), &f.Count, &ok)
	return ok
}

func readWorkersFault(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool {
	ok := r.needFaultKey(t, c, "workers")
	rangedInt(t, "workers", topology.SettingWorkersLost.Range(), &f.Count, &ok)
	return ok
}

func readKillSwitchFault(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool {
	k, cok := t.str("caller", false)
	if !cok {
		return !t.has("caller")
	}
	f.Caller = k
	if msg := unknownCaller(k, c.services, c.clients); msg != "" {
		r.errorf(t.key("caller"), "%s", msg)
		return false
	}
	return true
}

func readCacheFlushFault(r *reader, t *table, f *topology.FaultConfig, c *faultCtx) bool {
	ok := true
	for _, s := range c.m.Services {
		if s.Name == f.Target && s.Cache == nil {
			r.errorf(t.key("target"), "service %q has no [service.cache] to flush", f.Target)
			ok = false
		}
	}
	return ok
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
