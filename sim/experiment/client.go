package experiment

import (
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/topology"
)

var clientKeys = []string{"name", "target", "operation", "rate", "schedule", "interpolate",
	"users", "think_time", "deadline", "priority", "timeout", "retry", "hedge", "network",
	"bulkhead", "breaker", "retry_budget", "fallback"}

// client reads a [[client]] block.
func (r *reader) client(t *table, seen, services map[string]bool) (topology.ClientConfig, bool) {
	var cc topology.ClientConfig
	name, ok := r.name(t, "client", seen)
	cc.Name = name
	if target, tok := t.str("target", true); tok {
		if !services[target] {
			r.errorf(t.key("target"), "no service named %q is declared", target)
			ok = false
		}
		cc.Target = target
	} else {
		ok = false
	}
	cc.Operation, _ = t.str("operation", false)
	if services[cc.Target] {
		r.calls = append(r.calls, callRef{path: t.key("target"), service: cc.Target, op: cc.Operation})
	}
	ok = r.clientLoad(t, &cc) && ok
	if t.has("deadline") {
		d, dok := r.durationOrDist(t, "deadline")
		cc.Deadline = d
		ok = ok && dok
	}
	if p, pok := t.oneOf("priority", []string{"critical", "normal", "background"}); pok {
		cc.Priority = policies.Priority(p)
	} else if t.has("priority") {
		ok = false
	} else {
		cc.Priority = policies.Normal
	}
	pol, pok := r.callPolicy(t)
	cc.Call = pol
	t.done(clientKeys...)
	return cc, ok && pok
}

// clientLoad reads how a client sends: rate, schedule or users (with
// think_time).
func (r *reader) clientLoad(t *table, cc *topology.ClientConfig) bool {
	ok := true
	modes := 0
	for _, k := range []string{"rate", "schedule", "users"} {
		if t.has(k) {
			modes++
		}
	}
	if modes != 1 {
		r.errorf(t.path, "a client needs exactly one of rate = N (open loop), schedule = [ ... ] (open loop, varying) or users = N (closed loop)")
		ok = false
	}
	if rate, rok := t.ranged("rate", false, topology.SettingClientRate.Range()); rok {
		cc.Rate = rate
	} else if t.has("rate") {
		ok = false
	}
	if t.has("schedule") {
		pts, sok := r.schedule(t)
		cc.Schedule = pts
		ok = ok && sok
	}
	if i, iok := t.oneOf("interpolate", []string{"step", "linear"}); iok {
		cc.Linear = i == 1
	} else if t.has("interpolate") {
		ok = false
	}
	if u, uok := t.intIn("users", false, topology.SettingClientUsers.Range()); uok {
		cc.Users = int(u)
		if tt, tok := t.sub("think_time", true); tok {
			d, dok := r.dist(tt)
			cc.ThinkTime = d
			ok = ok && dok
		} else {
			ok = false
		}
	} else if t.has("users") {
		ok = false
	} else if t.has("think_time") {
		t.get("think_time")
		r.errorf(t.key("think_time"), "applies to closed-loop clients (users = N) only")
		ok = false
	}
	return ok
}

// schedule reads schedule = [ { at = "0s", rate = 100 }, ... ].
func (r *reader) schedule(t *table) ([]topology.RatePoint, bool) {
	var pts []topology.RatePoint
	ok := true
	for i, pt := range t.tables("schedule") {
		at, aok := pt.duration("at", true, 0)
		rate, rok := pt.ranged("rate", true, topology.SettingScheduleRate.Range())
		pt.done("at", "rate")
		if !aok || !rok {
			ok = false
			continue
		}
		switch {
		case i == 0 && at != 0:
			r.errorf(pt.key("at"), "the first point must be at \"0s\", got %v", at)
			ok = false
		case i > 0 && len(pts) > 0 && at < pts[len(pts)-1].At:
			r.errorf(pt.key("at"), "points must be in time order: %v comes after %v", at, pts[len(pts)-1].At)
			ok = false
		}
		pts = append(pts, topology.RatePoint{At: at, Rate: rate})
	}
	if len(pts) == 0 && ok {
		r.errorf(t.key("schedule"), "needs at least one point, e.g. [ { at = \"0s\", rate = 100 } ]")
		ok = false
	}
	return pts, ok
}

// durationOrDist reads a constant duration ("1s") or a distribution table.
func (r *reader) durationOrDist(t *table, k string) (dist.Dist, bool) {
	v, _ := t.m[k]
	if _, isTable := v.(map[string]any); isTable {
		st, _ := t.sub(k, true)
		return r.dist(st)
	}
	d, ok := t.duration(k, true, time.Nanosecond)
	if !ok {
		return dist.Dist{}, false
	}
	return dist.Must(dist.Params{Kind: dist.Constant, Mean: d}), true
}
