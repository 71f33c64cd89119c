package lint

import (
	"strconv"

	"github.com/ressim/ressim/sim/topology"
)

// site is one downstream call written in the file.
type site struct {
	svc  int    // index of the calling service in Config.Services
	op   string // the caller's operation ("" for the default handler)
	key  string // key path of the call's table, e.g. "service.0.step.1"
	call topology.CallConfig
}

// handlerKey returns the key path of a service's handler for operation op
// and its steps: the operation's when it has one, else the default.
func handlerKey(m *topology.Config, svc int, op string) (string, []topology.Step) {
	s := &m.Services[svc]
	base := "service." + strconv.Itoa(svc)
	for j, o := range s.Operations {
		if o.Name == op && op != "" {
			return base + ".operation." + strconv.Itoa(j), o.Steps
		}
	}
	return base, s.Steps
}

// stepSites lists the calls of a handler's steps, in order.
func stepSites(svc int, op, key string, steps []topology.Step) []site {
	var out []site
	for k, st := range steps {
		sk := key + ".step." + strconv.Itoa(k)
		switch st.Kind {
		case topology.CallStep:
			out = append(out, site{svc, op, sk, st.Calls[0]})
		case topology.ParallelStep:
			for c, cc := range st.Calls {
				out = append(out, site{svc, op, sk + ".parallel." + strconv.Itoa(c), cc})
			}
		case topology.ChooseStep:
			for c, cc := range st.Calls {
				out = append(out, site{svc, op, sk + ".choose." + strconv.Itoa(c), cc})
			}
		}
	}
	return out
}

// allSites lists every call site of the model: each service's default
// handler, then its operations, services in file order.
func allSites(m *topology.Config) []site {
	var out []site
	for i := range m.Services {
		s := &m.Services[i]
		base := "service." + strconv.Itoa(i)
		out = append(out, stepSites(i, "", base, s.Steps)...)
		for j, o := range s.Operations {
			out = append(out, stepSites(i, o.Name, base+".operation."+strconv.Itoa(j), o.Steps)...)
		}
	}
	return out
}

// handlerSites lists the calls a request for operation op of service svc
// makes.
func handlerSites(m *topology.Config, svc int, op string) []site {
	key, steps := handlerKey(m, svc, op)
	return stepSites(svc, op, key, steps)
}

// serviceIndex maps service names to their index.
func serviceIndex(m *topology.Config) map[string]int {
	idx := make(map[string]int, len(m.Services))
	for i, s := range m.Services {
		idx[s.Name] = i
	}
	return idx
}

// attempts is the most attempts a call policy makes (1 without retries
// or hedges): a retrying call's retry.attempts, a hedged call's
// hedge.attempts (hedge.Config.MaxAttempts: every copy is a call to the
// callee, hedge.Policy.MaxCopies).
// steadyAttempts is the attempts per call p's retry budget allows in
// steady state, the call rate at the layer being rate requests/s (0:
// unknown, as for a closed-loop client): 1 + ratio, plus the reserve's
// MinRetriesPerSec over the rate, at most the attempts (package budget:
// a success deposits ratio tokens, a retry or a hedge takes one). Without
// a token budget it is the attempts.
func steadyAttempts(p topology.CallPolicy, rate float64) float64 {
	a := float64(attempts(p))
	if pc := p.Guards.PerCallBudget; pc != nil && a > 1 {
		return min(1+pc.EarnPerCall, a) // Brooker's bucket: earn per call, a token per retry
	}
	b := p.Guards.Budget
	if a <= 1 || b == nil {
		return a // an AWS quota's steady state depends on the success rate: the worst case
	}
	s := 1 + b.Ratio
	if rate > 0 {
		s += b.MinRetriesPerSec / rate
	}
	return min(s, a)
}

// budgeted reports whether p's retries draw on a budget (tokens or
// concurrency) or pass a breaker for retries only, or its hedges on a
// token budget: the simulator asks only the token budget for hedges
// (gRPC's retryThrottling); Envoy's retry concurrency does not limit them.
func budgeted(p topology.CallPolicy) bool {
	if hedged(p) {
		return p.Guards.HasTokenBudget()
	}
	return p.Guards.HasTokenBudget() || p.Guards.RetryConcurrency != nil || p.Guards.RetryBreaker != nil
}

// hedged reports whether p hedges (then it does not retry: topology
// refuses both on one call).
func hedged(p topology.CallPolicy) bool { return p.Hedge.MaxAttempts > 1 }

func attempts(p topology.CallPolicy) int {
	switch {
	case p.Retry.MaxAttempts > 1:
		return p.Retry.MaxAttempts
	case hedged(p):
		return p.Hedge.MaxAttempts
	}
	return 1
}
