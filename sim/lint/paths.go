package lint

import (
	"slices"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// maxPaths bounds the paths enumerated per model, so that a wide fan-out
// cannot make lint exponential; the paths beyond are not listed (the
// per-site amplification is still computed on those listed).
const maxPaths = 1000

// maxAmplification saturates the product of attempts (100 attempts, the
// most a retry allows, at five layers is already 10^10; a hedge makes at
// most 5 copies).
const maxAmplification = 1 << 40

// walker enumerates call paths from the clients down.
type walker struct {
	m     *topology.Config
	idx   map[string]int
	paths []Path
	// reach[svc] is the longest deadline among the clients whose requests
	// reach svc; noDeadline[svc] marks one reached without a deadline.
	reach      map[int]time.Duration
	noDeadline map[int]bool
	// worst[key] is the worst path through a call site that has retrying
	// (or hedging) layers above it, for RS007.
	worst map[string]Path
}

func walk(m *topology.Config, variant string) *walker {
	w := &walker{m: m, idx: serviceIndex(m), reach: map[int]time.Duration{},
		noDeadline: map[int]bool{}, worst: map[string]Path{}}
	for _, c := range m.Clients {
		t, ok := w.idx[c.Target]
		if !ok {
			continue
		}
		dl := c.Deadline.Mean()
		p := Path{Variant: variant, Hops: []string{c.Name, c.Target}, rate: peakRate(c)}
		p = p.extend(c.Call)
		w.visit(t, c.Operation, dl, p, map[int]bool{t: true})
	}
	return w
}

// visit extends path p, which has just reached service svc for operation
// op, with every call of the handler.
func (w *walker) visit(svc int, op string, dl time.Duration, p Path, on map[int]bool) {
	if dl == 0 {
		w.noDeadline[svc] = true
	} else if dl > w.reach[svc] {
		w.reach[svc] = dl
	}
	sites := handlerSites(w.m, svc, op)
	leaf := true
	for _, s := range sites {
		t, ok := w.idx[s.call.Service]
		if !ok || on[t] || len(w.paths) >= maxPaths {
			continue
		}
		leaf = false
		q := p
		q.Hops = append(append([]string(nil), p.Hops...), s.call.Service)
		q = q.extend(s.call.Policy)
		w.noteSite(s.key, q)
		on[t] = true
		w.visit(t, s.call.Operation, dl, q, on)
		delete(on, t)
	}
	if leaf {
		w.paths = append(w.paths, finish(p))
	}
}

// noteSite records q as the path through site key if it amplifies more
// than the one recorded.
func (w *walker) noteSite(key string, q Path) {
	q = finish(q)
	if old, ok := w.worst[key]; !ok || q.Amplification > old.Amplification {
		w.worst[key] = q
	}
}

// extend adds a layer called with policy pol to p (whose Hops already
// name the callee): its attempts (a hedged call's copies), its
// steady-state attempts at the rate that reaches it, whether a budget
// holds its retries or hedges, whether it hedges. The slices are copied:
// paths share prefixes.
func (p Path) extend(pol topology.CallPolicy) Path {
	rate := p.rate
	for _, s := range p.Steady {
		rate *= s
	}
	p.Attempts = append(append([]int(nil), p.Attempts...), attempts(pol))
	p.Steady = append(append([]float64(nil), p.Steady...), steadyAttempts(pol, rate))
	p.budgeted = append(append([]bool(nil), p.budgeted...), budgeted(pol))
	p.hedged = append(append([]bool(nil), p.hedged...), hedged(pol))
	return p
}

// peakRate is an open-loop client's highest rate, requests/s; 0 for a
// closed-loop one, whose rate the lint does not know.
func peakRate(c topology.ClientConfig) float64 {
	if c.Users > 0 {
		return 0
	}
	r := c.Rate
	for _, pt := range c.Schedule {
		r = max(r, pt.Rate)
	}
	return r
}

// finish computes a path's amplification, worst and steady, and its
// retrying (or hedging) layers with and without a budget. Hedged is set
// only on a path with a hedged layer, so that the JSON of a path without
// one is as it was before hedges.
func finish(p Path) Path {
	p.Variants = []string{p.Variant}
	p.Amplification, p.SteadyAmplification, p.RetryLayers, p.BudgetedLayers = 1, 1, 0, 0
	p.Hedged = nil
	if slices.Contains(p.hedged, true) {
		p.Hedged = p.hedged
	}
	for i, a := range p.Attempts {
		if p.Amplification <= maxAmplification/a {
			p.Amplification *= a
		} else {
			p.Amplification = maxAmplification
		}
		p.SteadyAmplification = min(p.SteadyAmplification*p.Steady[i], maxAmplification)
		switch {
		case a > 1 && p.budgeted[i]:
			p.BudgetedLayers++
		case a > 1:
			p.RetryLayers++
		}
	}
	return p
}
