package experiment

import (
	"fmt"

	"github.com/ressim/ressim/sim/topology"
)

var serviceKeys = []string{"name", "instances", "balancer", "mode", "workers", "max_in_flight",
	"queue_capacity", "contention", "service_time", "step", "operation", "cache",
	"shed", "codel", "lifo", "limit", "outlier", "readiness", "liveness", "abandonment", "cancellation"}

// name reads and checks an entity's name.
func (r *reader) name(t *table, kind string, seen map[string]bool) (string, bool) {
	n, ok := t.str("name", true)
	switch {
	case !ok:
		return "", false
	case n == "":
		r.errorf(t.key("name"), "must not be empty")
		return "", false
	case !validName(n):
		// Still declared, so that references to it are not reported as
		// well: the name is the one problem.
		seen[n] = true
		r.errorf(t.key("name"), "name %q must be 1-64 letters, digits, '-', '_' or '.'", n)
		return "", false
	case n == topology.TotalEntity:
		seen[n] = true
		r.errorf(t.key("name"), "name %q is reserved: the time series use it for the sum over all clients", n)
		return "", false
	case seen[n]:
		r.errorf(t.key("name"), "%s %q is declared twice", kind, n)
		return "", false
	}
	seen[n] = true
	return n, true
}

// service reads a [[service]] block; propagate is
// [experiment].propagate_deadlines. Calls are checked against the whole
// list of services later, in checkCalls.
func (r *reader) service(t *table, seen map[string]bool, propagate bool) (topology.ServiceConfig, bool) {
	var sc topology.ServiceConfig
	name, ok := r.name(t, "service", seen)
	sc.Name = name
	ok = r.serviceCapacity(t, &sc) && ok
	if t.has("service_time") || t.has("step") || !t.has("operation") {
		steps, hok := r.handler(t)
		sc.Steps = steps
		ok = ok && hok
	}
	ok = r.serviceOperations(t, &sc) && ok
	adm, aok := r.admission(t, sc.QueueCapacity)
	sc.Admission = adm
	sg, gok := r.serviceGuards(t)
	sc.Guards = sg
	ok = ok && aok && gok
	ab, bok := r.abandonment(t, &sc, propagate)
	sc.Abandonment = ab
	ok = ok && bok
	if c, cok := t.oneOf("cancellation", topology.CancellationNames()); cok {
		sc.Cancellation = topology.Cancellation(c)
	} else if t.has("cancellation") {
		ok = false
	}
	if ct, cok := t.sub("cache", false); cok {
		c, good := r.cache(ct)
		sc.Cache = c
		ok = ok && good
	} else if t.has("cache") {
		ok = false
	}
	t.done(serviceKeys...)
	return sc, ok
}

// serviceOperations reads a service's [[service.operation]] tables.
func (r *reader) serviceOperations(t *table, sc *topology.ServiceConfig) bool {
	ok := true
	ops := map[string]bool{}
	for _, ot := range t.tables("operation") {
		oname, nok := ot.str("name", true)
		if nok && (oname == "" || ops[oname]) {
			r.errorf(ot.key("name"), "operation names must be unique and not empty; %q is not", oname)
			nok = false
		}
		ops[oname] = true
		steps, hok := r.handler(ot)
		ot.done("name", "service_time", "step")
		sc.Operations = append(sc.Operations, topology.Operation{Name: oname, Steps: steps})
		ok = ok && nok && hok
	}
	return ok
}

// serviceCapacity reads a service's instances, balancer, mode, workers or
// max_in_flight, queue and contention.
func (r *reader) serviceCapacity(t *table, sc *topology.ServiceConfig) bool {
	ok := true
	if n, nok := t.intIn("instances", false, topology.SettingInstances.Range()); nok {
		sc.Instances = int(n)
	} else if t.has("instances") {
		ok = false
	}
	if b, bok := t.oneOf("balancer", topology.BalancerNames()); bok {
		sc.Balancer = topology.Balancer(b)
	} else if t.has("balancer") {
		ok = false
	}
	if mo, mok := t.oneOf("mode", []string{"threads", "async"}); mok {
		sc.Mode = topology.Mode(mo)
	} else if t.has("mode") {
		ok = false
	}
	if sc.Mode == topology.Threads {
		if w, wok := t.intIn("workers", true, topology.SettingWorkers.Range()); wok {
			sc.Workers = int(w)
		} else {
			ok = false
		}
		if t.has("max_in_flight") {
			t.get("max_in_flight")
			r.errorf(t.key("max_in_flight"), "applies to mode = \"async\" only; a threads service has workers")
			ok = false
		}
	} else {
		if w, wok := t.intIn("max_in_flight", true, topology.SettingMaxInFlight.Range()); wok {
			sc.MaxInFlight = int(w)
		} else {
			ok = false
		}
		if t.has("workers") {
			t.get("workers")
			r.errorf(t.key("workers"), "applies to mode = \"threads\" only; an async service has max_in_flight")
			ok = false
		}
	}
	sc.QueueCapacity = -1
	if q, qok := t.intIn("queue_capacity", false, topology.SettingQueueCapacity.Range()); qok {
		sc.QueueCapacity = int(q)
	} else if t.has("queue_capacity") {
		ok = false
	}
	if c, cok := t.ranged("contention", false, topology.SettingContention.Range()); cok {
		sc.Contention = c
	} else if t.has("contention") {
		ok = false
	}
	return ok
}

// abandonment reads the service's abandonment semantics, default
// at_dequeue; on_expiry needs propagated deadlines and the FIFO queue.
func (r *reader) abandonment(t *table, sc *topology.ServiceConfig, propagate bool) (topology.Abandonment, bool) {
	if !t.has("abandonment") {
		return topology.AtDequeue, true
	}
	i, ok := t.oneOf("abandonment", topology.AbandonmentNames())
	if !ok {
		return topology.AtDequeue, false
	}
	ab := topology.Abandonment(i)
	if ab != topology.OnExpiry {
		return ab, true
	}
	switch {
	case !propagate:
		r.errorf(t.key("abandonment"), "on_expiry needs [experiment] propagate_deadlines = true: without it the service knows no deadline to expire")
		return ab, false
	case sc.Admission.LIFO != nil:
		r.errorf(t.key("abandonment"), "on_expiry does not combine with lifo, whose queue timeouts drop expired requests themselves; use at_dequeue or remove lifo")
		return ab, false
	}
	return ab, true
}

// handler reads a handler from t: service_time = {...} (one work step)
// or [[...step]] blocks.
func (r *reader) handler(t *table) ([]topology.Step, bool) {
	switch {
	case t.has("service_time") && t.has("step"):
		t.get("step")
		r.errorf(t.key("step"), "give either service_time (one work step) or step blocks, not both")
		return nil, false
	case t.has("service_time"):
		st, ok := t.sub("service_time", true)
		if !ok {
			return nil, false
		}
		d, dok := r.dist(st)
		return []topology.Step{{Kind: topology.WorkStep, Work: d}}, dok
	case t.has("step"):
		steps := t.tables("step")
		ok := true
		if len(steps) > topology.MaxSteps {
			r.errorf(t.key("step"), "at most %d steps, got %d", topology.MaxSteps, len(steps))
			ok = false
		}
		var out []topology.Step
		for _, stt := range steps {
			step, sok := r.step(stt)
			out = append(out, step)
			ok = ok && sok
		}
		if len(steps) == 0 {
			r.errorf(t.key("step"), "needs at least one step")
			ok = false
		}
		return out, ok
	}
	r.errorf(t.path, "missing the handler: service_time = { ... } or step blocks")
	return nil, false
}

// cache reads a [service.cache] table.
func (r *reader) cache(t *table) (*topology.CacheConfig, bool) {
	c := &topology.CacheConfig{Keys: 10000}
	ok := true
	if h, hok := t.ranged("hit_ratio", true, topology.SettingCacheHitRatio.Range()); hok {
		c.HitRatio = h
	} else {
		ok = false
	}
	if k, kok := t.intIn("keys", false, topology.SettingCacheKeys.Range()); kok {
		c.Keys = int(k)
	} else if t.has("keys") {
		ok = false
	}
	if lt, lok := t.sub("latency", false); lok {
		d, dok := r.dist(lt)
		c.Latency = d
		ok = ok && dok
	} else if t.has("latency") {
		ok = false
	}
	t.done("hit_ratio", "keys", "latency")
	return c, ok
}

// callRef is a call's target, checked once all services are known.
type callRef struct {
	path, service, op string
}

// checkCalls reports calls to undeclared services and call cycles;
// declared holds every service name declared, even in a block with errors.
func (r *reader) checkCalls(m *topology.Config, declared map[string]bool) {
	known := map[string]*topology.ServiceConfig{}
	for i := range m.Services {
		known[m.Services[i].Name] = &m.Services[i]
	}
	bad := false
	for _, d := range r.deps {
		if !declared[d.service] {
			r.errorf(d.path, "no service named %q is declared", d.service)
			bad = true
		}
	}
	for _, c := range r.calls {
		callee, ok := known[c.service]
		switch {
		case c.service != "" && !declared[c.service]:
			r.errorf(c.path, "no service named %q is declared", c.service)
			bad = true
		case ok && len(callee.Steps) == 0 && !hasOp(callee, c.op):
			var names []string
			for _, o := range callee.Operations {
				names = append(names, o.Name)
			}
			r.errorf(c.path, "service %q has no handler for operation %q; it serves: %v", c.service, c.op, names)
			bad = true
		}
	}
	if bad || len(r.errs) > 0 {
		return
	}
	r.checkCycles(m)
}

// checkCycles reports a call cycle at the first call that closes one.
func (r *reader) checkCycles(m *topology.Config) {
	idx := map[string]int{}
	for i, s := range m.Services {
		idx[s.Name] = i
	}
	state := make([]int, len(m.Services))
	var path []string
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = 1
		path = append(path, m.Services[i].Name)
		handlers := [][]topology.Step{m.Services[i].Steps}
		prefixes := []string{fmt.Sprintf("service.%d", i)}
		for oi, o := range m.Services[i].Operations {
			handlers = append(handlers, o.Steps)
			prefixes = append(prefixes, fmt.Sprintf("service.%d.operation.%d", i, oi))
		}
		for hi, steps := range handlers {
			for si, st := range steps {
				for ci, cc := range st.Calls {
					j := idx[cc.Service]
					if state[j] == 1 {
						key := fmt.Sprintf("%s.step.%d.call", prefixes[hi], si)
						switch st.Kind {
						case topology.ParallelStep:
							key = fmt.Sprintf("%s.step.%d.parallel.%d.call", prefixes[hi], si, ci)
						case topology.ChooseStep:
							key = fmt.Sprintf("%s.step.%d.choose.%d.call", prefixes[hi], si, ci)
						}
						r.errorf(key, "call cycle %v -> %s: a service may not call itself, directly or through others", path, cc.Service)
						return true
					}
					if state[j] == 0 && visit(j) {
						return true
					}
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = 2
		return false
	}
	for i := range m.Services {
		if state[i] == 0 && visit(i) {
			return
		}
	}
}

func hasOp(s *topology.ServiceConfig, op string) bool {
	for _, o := range s.Operations {
		if o.Name == op {
			return true
		}
	}
	return false
}
