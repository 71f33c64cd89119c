package lint

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

// checker collects the findings of one model.
type checker struct {
	m       *topology.Config
	variant string
	w       *walker
	out     []Finding
}

func (c *checker) add(id, key, format string, a ...any) {
	r, _ := ruleByID(id)
	c.out = append(c.out, Finding{Rule: id, Severity: r.Severity, Key: key,
		Variant: c.variant, Variants: []string{c.variant}, Message: fmt.Sprintf(format, a...)})
}

// checkModel runs every rule on one model.
func checkModel(m *topology.Config, variant string) ([]Finding, []Path) {
	c := &checker{m: m, variant: variant, w: walk(m, variant)}
	for i := range m.Clients {
		c.client(i)
	}
	for _, s := range allSites(m) {
		c.site(s)
	}
	for i := range m.Services {
		c.service(i)
	}
	c.propagation()
	c.sticky()
	return c.out, c.w.paths
}

func (c *checker) client(i int) {
	cl := &c.m.Clients[i]
	key := "client." + strconv.Itoa(i)
	if cl.Call.Timeout == 0 && cl.Deadline.Mean() == 0 {
		c.add("RS001", key, "client %q sets neither timeout nor deadline: its requests may wait forever", cl.Name)
	}
	c.retry(key, cl.Name+" -> "+cl.Target, cl.Call)
	c.hedge(key, cl.Name+" -> "+cl.Target, cl.Target, cl.Call)
}

// retry checks a call policy's retries (RS005, RS006, RS008).
func (c *checker) retry(key, what string, p topology.CallPolicy) {
	r := p.Retry
	if r.MaxAttempts <= 1 {
		return
	}
	rk := key + ".retry"
	if !r.Idempotent {
		c.add("RS008", rk, "%s: %d attempts on a non-idempotent operation", what, r.MaxAttempts)
	}
	switch r.Backoff {
	case retry.BackoffNone, retry.BackoffConstant, retry.BackoffExponential:
		c.add("RS005", rk, "%s: %d attempts with a backoff without jitter", what, r.MaxAttempts)
	}
	// A breaker for retries only (placement "retries_only") stops the
	// retries once the dependency fails: it bounds them as a budget does.
	if !p.Guards.HasTokenBudget() && p.Guards.RetryConcurrency == nil && p.Guards.RetryBreaker == nil {
		c.add("RS006", rk, "%s: %d attempts and no retry_budget: up to %dx the load on a failing dependency", what, r.MaxAttempts, r.MaxAttempts)
	}
}

// hedge checks a call policy's hedging (RS018, RS019, RS020); callee is
// the service called.
func (c *checker) hedge(key, what, callee string, p topology.CallPolicy) {
	if !hedged(p) {
		return
	}
	h := p.Hedge
	hk := key + ".hedge"
	switch {
	case h.Delay == 0:
		c.add("RS018", hk+".delay", "%s: hedge delay 0 (gRPC's default) sends all %d copies of every call at once: %dx the load on %s all the time, not only for slow calls",
			what, h.MaxAttempts, h.MaxAttempts, callee)
	case h.InitialRequests > 1:
		c.add("RS018", hk+".initial_requests", "%s: hedge initial_requests = %d sends %d copies of every call at once: %dx the load on %s all the time, not only for slow calls",
			what, h.InitialRequests, h.InitialRequests, h.InitialRequests, callee)
	}
	if !p.Guards.HasTokenBudget() {
		also := ""
		if p.Guards.RetryConcurrency != nil {
			also = " (a concurrency retry_budget limits retries, not hedges)"
		}
		c.add("RS019", hk, "%s: %d copies per call and no token retry_budget%s: when %s slows down, every slow call sends its hedges, up to %dx the load",
			what, h.MaxAttempts, also, callee, h.MaxAttempts)
	}
	if i, ok := c.w.idx[callee]; ok && c.m.Services[i].Cancellation == topology.CancelNever {
		c.add("RS020", hk, "%s: %s never cancels (cancellation = %q): the work of each losing copy runs on to its end for nobody; set cancellation = %q or %q on %s",
			what, callee, topology.CancelNever.String(), topology.CancelContinuous.String(), topology.CancelAtStep.String(), callee)
	}
}

// site checks one downstream call.
func (c *checker) site(s site) {
	caller := c.m.Services[s.svc].Name
	what := caller + " -> " + s.call.Service
	p := s.call.Policy
	if p.Timeout == 0 {
		c.add("RS001", s.key+".call", "%s has no timeout", what)
	}
	if dl, ok := c.deadline(s.svc); ok && p.Timeout > dl && !c.m.PropagateDeadlines {
		c.add("RS002", s.key+".timeout", "%s: timeout %v exceeds the longest user deadline reaching %s (%v)", what, p.Timeout, caller, dl)
	}
	if !s.call.Critical {
		c.nonCritical(s, what)
	}
	c.retry(s.key, what, p)
	c.hedge(s.key, what, s.call.Service, p)
	// A layer whose retries (or hedges) draw on a budget does not
	// multiply the load in steady state (1 + ratio per layer): RS007
	// counts the others. A hedged layer counts as a retrying one: each
	// copy is a call to the callee, as each attempt is.
	if path, ok := c.w.worst[s.key]; ok && attempts(p) > 1 && !budgeted(p) && path.RetryLayers > 1 {
		verb, key, layers := "retries", s.key+".retry", "retrying"
		if hedged(p) {
			verb, key = "hedges", s.key+".hedge"
		}
		if path.Hedged != nil {
			layers = "retrying or hedging"
		}
		c.add("RS007", key, "%s %s under %d other %s layer(s) without a retry budget: %s = %s",
			what, verb, path.RetryLayers-1, layers, pathString(path), amplificationText(path))
		c.out[len(c.out)-1].bottom = path.Hops[len(path.Hops)-1]
	}
	if b := p.Guards.Breaker; b != nil {
		if p.Guards.Fallback == nil && s.call.Critical {
			c.add("RS017", s.key+".breaker", "%s: the breaker has no fallback: when it opens, users get the error sooner, not an answer", what)
		}
		if b.PermittedNumberOfCallsInHalfOpenState > 10 {
			c.add("RS009", s.key+".breaker", "%s: half-open admits %d probe calls (more than 10)", what, b.PermittedNumberOfCallsInHalfOpenState)
		}
		if b.MinimumNumberOfCalls < 5 {
			c.add("RS010", s.key+".breaker", "%s: the breaker may open after %d call(s) (fewer than 5)", what, b.MinimumNumberOfCalls)
		}
	}
	if p.Guards.Bulkhead == nil && p.Guards.BulkheadPool == nil && c.shared(s.svc) {
		c.add("RS011", s.key+".call", "%s has no bulkhead, and %s's workers serve other dependencies or operations too", what, caller)
	}
}

// nonCritical checks a non-critical call's time budget and fallback.
func (c *checker) nonCritical(s site, what string) {
	p := s.call.Policy
	crit := c.longestCritical(s.svc)
	dl, hasDL := c.deadline(s.svc)
	switch {
	case p.Timeout == 0:
		c.add("RS004", s.key+".critical", "%s is non-critical but has no timeout", what)
	case crit > 0 && p.Timeout >= crit:
		c.add("RS004", s.key+".timeout", "%s is non-critical but its timeout %v is as long as a critical call's (%v)", what, p.Timeout, crit)
	case hasDL && p.Timeout > dl/2:
		c.add("RS004", s.key+".timeout", "%s is non-critical but its timeout %v is above half the user's deadline (%v)", what, p.Timeout, dl)
	}
	if p.Guards.Fallback == nil {
		c.add("RS016", s.key+".critical", "%s is non-critical but declares no fallback", what)
	}
}

// deadline returns the longest user deadline reaching service svc, and
// false when a request without a deadline (or none at all) reaches it.
func (c *checker) deadline(svc int) (time.Duration, bool) {
	dl, ok := c.w.reach[svc]
	return dl, ok && !c.w.noDeadline[svc]
}

// longestCritical is the longest timeout of a critical call of svc.
func (c *checker) longestCritical(svc int) time.Duration {
	var max time.Duration
	for _, s := range allSites(c.m) {
		if s.svc == svc && s.call.Critical && s.call.Policy.Timeout > max {
			max = s.call.Policy.Timeout
		}
	}
	return max
}

// shared reports whether svc's workers serve more than one dependency or
// more than one operation with calls.
func (c *checker) shared(svc int) bool {
	deps := map[string]bool{}
	for _, s := range allSites(c.m) {
		if s.svc == svc {
			deps[s.call.Service] = true
		}
	}
	return len(deps) > 1 || (len(deps) == 1 && len(c.m.Services[svc].Operations) > 0)
}

// amplificationText is a path's worst-case amplification, with the
// steady state its retry budgets allow when it has any.
func amplificationText(p Path) string {
	if p.BudgetedLayers == 0 {
		return fmt.Sprintf("%dx worst case", p.Amplification)
	}
	return fmt.Sprintf("%dx worst case while the retry budgets' tokens last, %.2fx in steady state", p.Amplification, p.SteadyAmplification)
}

// pathString is a path's hops and the attempts at each, a hedged
// layer's marked: "users -> api -> db (2 hedged x 3)".
func pathString(p Path) string {
	parts := make([]string, len(p.Attempts))
	for i, a := range p.Attempts {
		parts[i] = strconv.Itoa(a)
		if i < len(p.Hedged) && p.Hedged[i] {
			parts[i] += " hedged"
		}
	}
	return strings.Join(p.Hops, " -> ") + " (" + strings.Join(parts, " x ") + ")"
}
