package experiment

import (
	"strings"
	"time"

	"github.com/ressim/ressim/sim/dist"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

var retryKeys = []string{"attempts", "backoff", "base", "cap", "on", "idempotent"}

// backoffNames lists the retry package's backoff names in its order.
func backoffNames() []string {
	var names []string
	for b := retry.Backoff(0); ; b++ {
		s := b.String()
		if _, ok := retry.ParseBackoff(s); !ok {
			return names
		}
		names = append(names, s)
	}
}

// callPolicy reads timeout, retry and network from t (a client or a call).
func (r *reader) callPolicy(t *table) (topology.CallPolicy, bool) {
	var p topology.CallPolicy
	ok := true
	if v, present := t.m["timeout"]; present {
		if _, isTable := v.(map[string]any); isTable {
			tt, _ := t.sub("timeout", false)
			to, tok := r.timeoutDist(tt)
			p.Timeout, p.TimeoutExponential = to, tok
			ok = tok
		} else if to, tok := t.duration("timeout", false, 0); tok {
			p.Timeout = to
		} else {
			ok = false
		}
	}
	if nt, nok := t.sub("network", false); nok {
		d, dok := r.dist(nt)
		p.Network = d
		ok = ok && dok
	} else if t.has("network") {
		ok = false
	}
	g, gok := r.guards(t)
	p.Guards = g
	ok = ok && gok
	if rt, rok := t.sub("retry", false); rok {
		rc, good := r.retry(rt)
		p.Retry = rc
		ok = ok && good
	} else if t.has("retry") {
		ok = false
	}
	if ht, hok := t.sub("hedge", false); hok {
		hc, good := r.hedge(ht)
		p.Hedge = hc
		ok = ok && good
		if good && p.Hedge.MaxAttempts > 1 && p.Retry.MaxAttempts > 1 {
			r.errorf(t.key("hedge"), "a call hedges or retries, not both (as in gRPC's service config): remove retry, or hedge")
			ok = false
		}
	} else if t.has("hedge") {
		ok = false
	}
	return p, ok
}

// retry reads a retry = { ... } table.
func (r *reader) retry(t *table) (retry.Config, bool) {
	c := retry.DefaultConfig()
	ok := true
	if n, nok := t.intIn("attempts", true, topology.SettingRetryAttempts.Range()); nok {
		c.MaxAttempts = int(n)
	} else {
		ok = false
	}
	names := backoffNames()
	if i, bok := t.oneOf("backoff", names); bok {
		c.Backoff, _ = retry.ParseBackoff(names[i])
	} else if t.has("backoff") {
		ok = false
	}
	if b, bok := t.duration("base", false, 0); bok {
		c.Base = b
	} else if t.has("base") {
		ok = false
	}
	if cp, cok := t.duration("cap", false, 0); cok {
		c.Cap = cp
	} else if t.has("cap") {
		ok = false
	}
	if on, ook := t.strings("on"); ook {
		var set retry.OutcomeSet
		allowed := []string{policies.Error.String(), policies.Timeout.String(), policies.Rejected.String()}
		for _, s := range on {
			o, known := policies.ParseOutcome(s)
			if !known || (o != policies.Error && o != policies.Timeout && o != policies.Rejected) {
				r.errorf(t.key("on"), "cannot retry on %q; retryable outcomes are: %s (a breaker-open or deadline failure is never retried)", s, strings.Join(allowed, ", "))
				ok = false
				continue
			}
			set = set.With(o)
		}
		if len(on) == 0 {
			r.errorf(t.key("on"), "must list at least one outcome; use attempts = 1 to disable retries")
			ok = false
		}
		c.RetryOn = set
	} else if t.has("on") {
		ok = false
	}
	c.Idempotent, _ = t.boolean("idempotent", true)
	t.done(retryKeys...)
	if ok && c.MaxAttempts > 1 {
		if err := c.Validate(); err != nil {
			r.errorf(t.path, "%v", err)
			ok = false
		}
	}
	return c, ok
}

// timeoutDist reads timeout = { dist = "exponential", mean = "..." }: each
// attempt's timeout drawn from an exponential distribution of that mean.
// It returns the mean. Other distributions are refused: a fixed timeout
// is written as a duration.
func (r *reader) timeoutDist(t *table) (time.Duration, bool) {
	d, ok := r.dist(t)
	if !ok {
		return 0, false
	}
	if d.Kind() != dist.Exponential {
		r.errorf(t.key("dist"), "a timeout's distribution must be \"exponential\", got %q; write a fixed timeout as a duration such as \"100ms\"", d.Kind())
		return 0, false
	}
	return d.Mean(), true
}
