package importer

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/ressim/ressim/sim/policies/hedge"
)

// envoyHedge is a route's hedge_policy as read
// (envoy/config/route/v3/route_components.proto, HedgePolicy).
type envoyHedge struct {
	from         src
	onPerTry     bool // hedge_on_per_try_timeout (default false)
	onPerTryFrom *src
}

// envoyDenominators are FractionalPercent's denominators
// (envoy/type/v3/percent.proto), by name and by number.
var envoyDenominators = map[string]float64{
	"HUNDRED": 100, "TEN_THOUSAND": 10000, "MILLION": 1000000,
	"0": 100, "1": 10000, "2": 1000000,
}

// hedgePolicy reads a route's hedge_policy. Envoy's API marks
// initial_requests and additional_request_chance [#not-implemented-hide:]:
// Envoy accepts them and sends one request. They are checked and not
// imported, with a warning each: the import models the proxy as it runs,
// and a copy it never sends would misstate the load.
func (g *envoyReader) hedgePolicy(n *yaml.Node, s src) *envoyHedge {
	h := &envoyHedge{from: s}
	if n.Kind != yaml.MappingNode {
		g.fail(s, "must be a HedgePolicy object {initial_requests, additional_request_chance, hedge_on_per_try_timeout}")
		return nil
	}
	ok := true
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "initial_requests":
			k, err := strconv.Atoi(f.value.Value)
			if f.value.Kind != yaml.ScalarNode || err != nil || k < 1 || k > 1<<24 {
				g.fail(fs, "want an integer >= 1, got %q", f.value.Value)
				ok = false
				continue
			}
			if k > 1 {
				g.warn(fs, "Envoy's API marks initial_requests not implemented (route_components.proto, HedgePolicy): Envoy sends one request; not imported (hedge.initial_requests models a proxy that would)")
			}
		case "additional_request_chance":
			p, pok := g.fractionalPercent(f.value, fs)
			if !pok {
				ok = false
				continue
			}
			if p > 0 {
				g.warn(fs, "Envoy's API marks additional_request_chance not implemented (route_components.proto, HedgePolicy): Envoy sends no extra request; not imported (hedge.additional_chance models a proxy that would)")
			}
		case "hedge_on_per_try_timeout":
			switch f.value.Value {
			case "true", "false":
				h.onPerTry, h.onPerTryFrom = f.value.Value == "true", &fs
			default:
				g.fail(fs, "want true or false, got %q", f.value.Value)
				ok = false
			}
		default:
			g.warn(fs, "not a HedgePolicy field; ignored")
		}
	}
	if !ok {
		return nil
	}
	return h
}

// fractionalPercent reads an Envoy FractionalPercent {numerator,
// denominator} (denominator HUNDRED by default) as a probability; one
// above 1 is imported as 1, with a warning.
func (g *envoyReader) fractionalPercent(n *yaml.Node, s src) (float64, bool) {
	if n.Kind != yaml.MappingNode {
		g.fail(s, "want a FractionalPercent {numerator, denominator}")
		return 0, false
	}
	num, den := 0.0, 100.0
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "numerator":
			k, err := strconv.ParseUint(f.value.Value, 10, 32)
			if f.value.Kind != yaml.ScalarNode || err != nil {
				g.fail(fs, "want an integer in [0, 4294967295], got %q", f.value.Value)
				return 0, false
			}
			num = float64(k)
		case "denominator":
			d, known := envoyDenominators[f.value.Value]
			if f.value.Kind != yaml.ScalarNode || !known {
				g.fail(fs, "want HUNDRED, TEN_THOUSAND or MILLION, got %q", f.value.Value)
				return 0, false
			}
			den = d
		default:
			g.warn(fs, "not a FractionalPercent field; ignored")
		}
	}
	if num > den {
		g.warn(s, "%v out of %v is over 100%%: imported as a probability of 1", num, den)
		return 1, true
	}
	return num / den, true
}

// hedge writes a route's hedge table, folding its retry_policy r (nil:
// none) into it, and reports whether the route hedges; when it does not,
// the retry table is written as usual.
//
// Envoy hedges only on a per-try timeout (HedgePolicy.hedge_on_per_try_timeout,
// and the HTTP routing overview's "Request hedging"): the copy that timed
// out stays in flight, a retry goes alongside it, and the first good
// answer wins. Its copies are the retry policy's: num_retries + 1 in all,
// sent on retry_on failures or per-try timeouts, never on a timer. So the
// hedge table is attempts = num_retries + 1, at most 5; delay = "never";
// non_fatal = retry_on's outcomes; on_per_try_timeout = true.
// hedge_on_per_try_timeout has no effect without a retry_policy and its
// per_try_timeout (Envoy's note on the field): a warning, and the route
// retries.
func (g *envoyReader) hedge(h *envoyHedge, r *envoyRetry, c *callOut) bool {
	if !h.onPerTry {
		g.warn(h.from, "Envoy sends no hedged copy with these values (it hedges only with hedge_on_per_try_timeout); not imported")
		return false
	}
	if r == nil || !r.perTryTimeout {
		why := "no retry_policy gives it copies"
		if r != nil {
			why = "the retry_policy has no per_try_timeout"
		}
		g.warn(*h.onPerTryFrom, "no effect in Envoy: %s", why)
		return false
	}
	attempts := r.attempts
	if attempts > hedge.MaxMaxAttempts {
		g.warn(r.from, "ressim's hedge sends at most %d copies (gRPC's cap): %d imported as %d", hedge.MaxMaxAttempts, attempts, hedge.MaxMaxAttempts)
		attempts = hedge.MaxMaxAttempts
	}
	c.set("hedge.attempts", strconv.Itoa(attempts), r.from)
	c.set("hedge.delay", `"never"`, h.from)
	c.set("hedge.non_fatal", r.on, r.from)
	c.notes = append(c.notes, fmt.Sprintf("hedged, not retried: the retry_policy at %s:%d:%d gives the hedge its copies and non_fatal; a call hedges or retries, so no retry table (and no backoff between copies)",
		r.from.file, r.from.line, r.from.col))
	g.warn(r.from, "imported into the route's hedge (hedge_policy at %d:%d), not as a retry table: a call hedges or retries; the backoff between copies is not modelled", h.from.line, h.from.col)
	c.set("hedge.on_per_try_timeout", "true", *h.onPerTryFrom)
	return true
}
