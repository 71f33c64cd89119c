package experiment

import (
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/topology"
)

var hedgeKeys = []string{"attempts", "delay", "non_fatal", "initial_requests", "additional_chance", "on_per_try_timeout"}

// hedge reads a hedge = { ... } table: attempts (copies in all, the first
// included), delay (gRPC's hedgingDelay, or "never": copies only at the
// start and on per-try timeouts, Envoy's model), non_fatal (the outcomes
// after which the next copy goes at once), initial_requests,
// additional_chance and on_per_try_timeout (Envoy's hedge_policy).
func (r *reader) hedge(t *table) (hedge.Config, bool) {
	c := hedge.DefaultConfig()
	ok := true
	if n, nok := t.ranged("attempts", true, topology.SettingHedgeAttempts.Range()); nok {
		c.MaxAttempts = int(n)
	} else {
		ok = false
	}
	if v, has := t.get("delay"); has && v == "never" {
		c.Delay = hedge.Never
	} else if str, isStr := v.(string); has && isStr && !validDuration(str) {
		r.errorf(t.key("delay"), `expected a duration such as "20ms", or "never" (copies only at the start and on per-try timeouts), got %q`, str)
		ok = false
	} else if d, dok := t.duration("delay", false, 0); dok {
		c.Delay = d
	} else if has {
		ok = false
	}
	rangedInt(t, "initial_requests", topology.SettingHedgeInitialRequests.Range(), &c.InitialRequests, &ok)
	rangedNum(t, "additional_chance", topology.SettingHedgeAdditionalChance.Range(), &c.AdditionalChance, &ok)
	c.OnPerTryTimeout, _ = t.boolean("on_per_try_timeout", false)
	if nf, nok := t.strings("non_fatal"); nok {
		allowed := []policies.Outcome{policies.Error, policies.Timeout, policies.Rejected, policies.BulkheadFull}
		var names []string
		for _, o := range allowed {
			names = append(names, o.String())
		}
		for _, s := range nf {
			o, known := policies.ParseOutcome(s)
			if !known || !hedge.NewOutcomeSet(allowed...).Has(o) {
				r.errorf(t.key("non_fatal"), "%q cannot be non-fatal; non-fatal outcomes are: %s (a breaker-open, deadline or cancelled copy always ends the call)", s, strings.Join(names, ", "))
				ok = false
				continue
			}
			c.NonFatal = c.NonFatal.With(o)
		}
	} else if t.has("non_fatal") {
		ok = false
	}
	t.done(hedgeKeys...)
	if ok {
		if err := c.Validate(); err != nil {
			r.errorf(t.path, "%v", err)
			ok = false
		}
	}
	return c, ok
}

// validDuration reports whether s parses as a Go duration.
func validDuration(s string) bool {
	_, err := time.ParseDuration(s)
	return err == nil
}
