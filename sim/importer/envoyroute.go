package importer

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// outlier maps a cluster's outlier_detection onto the callee's outlier
// table (ressim's outlier policy is Envoy's consecutive-5xx detection).
func (g *envoyReader) outlier(n *yaml.Node, s src, svc string) {
	keys := map[string]string{"consecutive_5xx": "", "interval": "dur", "base_ejection_time": "dur",
		"max_ejection_time": "dur", "max_ejection_percent": ""}
	g.sk.service(svc, setting{"outlier", "{}", s})
	setsPercent := false
	defer func() {
		if !setsPercent {
			// envoy/config/cluster/v3/outlier_detection.proto:
			// max_ejection_percent "Defaults to 10%"; ressim's is 50.
			g.sk.service(svc, setting{"outlier.max_ejection_percent", "10", src{s.file, s.line, s.col, s.key + ".max_ejection_percent(default)"}})
		}
	}()
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		setsPercent = setsPercent || f.key == "max_ejection_percent"
		kind, ok := keys[f.key]
		if !ok {
			g.warn(fs, "not modelled: ressim ejects on consecutive 5xx only")
			continue
		}
		v := f.value.Value
		if kind == "dur" {
			d, dok := (&grpcReader{file: g.file}).durationInto(f.value, fs, &g.errs)
			if !dok {
				continue
			}
			v = strconv.Quote(d.String())
		} else if _, err := strconv.Atoi(v); err != nil {
			g.fail(fs, "want an integer, got %q", v)
			continue
		}
		g.sk.service(svc, setting{"outlier." + f.key, v, fs})
	}
}

// virtualHost maps each route's timeout, retry_policy and hedge_policy
// onto the call to its cluster.
func (g *envoyReader) virtualHost(n *yaml.Node) {
	for _, f := range fields(n) {
		if f.key != "routes" || f.value.Kind != yaml.SequenceNode {
			continue
		}
		for i, r := range f.value.Content {
			for _, rf := range fields(r) {
				if rf.key == "route" {
					g.route(rf.value, at(g.file, rf.kpos, fmt.Sprintf("routes[%d].route", i)))
				}
			}
		}
	}
}

func (g *envoyReader) route(n *yaml.Node, s src) {
	var cluster string
	for _, f := range fields(n) {
		if f.key == "cluster" {
			cluster = f.value.Value
		}
	}
	if cluster == "" {
		g.warn(s, "no single cluster (weighted or header clusters are not modelled); ignored")
		return
	}
	c := g.call(cluster, s)
	routeTimeout := false
	var retry *envoyRetry
	var hedge *envoyHedge
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "cluster":
		case "timeout":
			routeTimeout = true
			if d, ok := (&grpcReader{file: g.file}).durationInto(f.value, fs, &g.errs); ok && !hasKey(c, "timeout", g.file) {
				c.set("timeout", strconv.Quote(d.String()), fs)
				g.warn(fs, "the route timeout bounds all attempts; ressim's timeout bounds each: imported as the per-attempt timeout unless per_try_timeout is set")
			}
		case "retry_policy":
			retry = g.retryPolicy(f.value, fs, c)
		case "hedge_policy":
			hedge = g.hedgePolicy(f.value, fs)
		default:
			g.warn(fs, "not modelled; ignored")
		}
	}
	// A call hedges or retries: Envoy's hedged copies are the retry
	// policy's retries, so a route that hedges gets a hedge table made of
	// both and no retry table (envoyhedge.go).
	if hedge == nil || !g.hedge(hedge, retry, c) {
		retry.set(c)
	}
	if !routeTimeout && !hasKey(c, "timeout", g.file) {
		// envoy/config/route/v3/route_components.proto, RouteAction.timeout:
		// "If not specified, the default is 15s."
		ds := src{s.file, s.line, s.col, s.key + ".timeout(default)"}
		c.set("timeout", `"15s"`, ds)
		g.warn(ds, "no timeout: Envoy's default route timeout of 15s applies (RouteAction.timeout), imported as the call's timeout")
	}
}

// envoyRetryOn maps retry_on conditions to ressim outcomes.
var envoyRetryOn = map[string][]string{
	"5xx": {"error", "timeout"}, "gateway-error": {"error", "timeout"}, "connect-failure": {"error"},
	"reset": {"error"}, "refused-stream": {"rejected"}, "retriable-status-codes": {"error"},
	"unavailable": {"error"}, "cancelled": {"error"}, "internal": {"error"},
	"resource-exhausted": {"rejected"}, "deadline-exceeded": {"timeout"}, "envoy-ratelimited": {"rejected"},
}

// envoyRetry is a route's retry_policy as read, before it is written as
// a retry table or folded into a hedge.
type envoyRetry struct {
	from          src
	attempts      int // num_retries + 1
	base, capv    string
	on            string // outcomeList of retry_on
	perTryTimeout bool
}

// retryPolicy reads a route's retry_policy; its per_try_timeout is the
// call's timeout at once. Envoy's backoff is full jitter from
// base_interval (default 25 ms) doubling up to max_interval (default 10 x
// base): ressim's full_jitter. It returns nil when retry_on is absent
// (a warning: Envoy then retries only as request headers say) or names no
// condition ressim models (an error).
func (g *envoyReader) retryPolicy(n *yaml.Node, s src, c *callOut) *envoyRetry {
	r := &envoyRetry{from: s, attempts: 2, base: `"25ms"`}
	on := map[string]bool{}
	hasOn := false
	gr := &grpcReader{file: g.file}
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "num_retries":
			k, err := strconv.Atoi(f.value.Value)
			if err != nil || k < 0 || k > 99 {
				g.fail(fs, "want an integer in [0, 99], got %q", f.value.Value)
				continue
			}
			r.attempts = k + 1
		case "per_try_timeout":
			if d, ok := gr.durationInto(f.value, fs, &g.errs); ok {
				c.set("timeout", strconv.Quote(d.String()), fs)
				r.perTryTimeout = true
			}
		case "retry_on":
			hasOn = true
			for _, cond := range strings.Split(f.value.Value, ",") {
				outs, ok := envoyRetryOn[strings.TrimSpace(cond)]
				if !ok {
					g.warn(fs, "retry_on %q is not modelled; ignored", strings.TrimSpace(cond))
				}
				for _, o := range outs {
					on[o] = true
				}
			}
		case "retry_back_off":
			g.backOff(f.value, fs, r, gr)
		default:
			g.warn(fs, "not modelled; ignored")
		}
	}
	r.on = outcomeList(on)
	switch {
	case !hasOn:
		// RetryPolicy.retry_on: "Specifies the conditions under which
		// retry takes place"; without it a route retries only on what a
		// request's x-envoy-retry-on header names, which the
		// configuration does not say.
		g.warn(s, "no retry_on: Envoy retries only on the conditions a request's x-envoy-retry-on or x-envoy-retry-grpc-on header names; imported without retries")
		return nil
	case r.on == "":
		g.fail(s, "retry_on names no condition ressim models (e.g. 5xx, connect-failure, reset)")
		return nil
	}
	return r
}

// backOff reads retry_back_off's base_interval and max_interval into r.
func (g *envoyReader) backOff(n *yaml.Node, s src, r *envoyRetry, gr *grpcReader) {
	for _, b := range fields(n) {
		bs := at(g.file, b.kpos, s.key+"."+b.key)
		d, ok := gr.durationInto(b.value, bs, &g.errs)
		switch {
		case !ok:
		case b.key == "base_interval":
			r.base = strconv.Quote(d.String())
		case b.key == "max_interval":
			r.capv = strconv.Quote(d.String())
		default:
			g.warn(bs, "not modelled; ignored")
		}
	}
}

// set writes the retry table of a route's retry_policy; nil writes none.
func (r *envoyRetry) set(c *callOut) {
	if r == nil {
		return
	}
	c.set("retry.attempts", strconv.Itoa(r.attempts), r.from)
	c.set("retry.backoff", `"full_jitter"`, r.from)
	c.set("retry.base", r.base, r.from)
	if r.capv != "" {
		c.set("retry.cap", r.capv, r.from)
	}
	c.set("retry.on", r.on, r.from)
}

// outcomeList renders the outcomes set in on as a TOML array, in
// ressim's order, or "" when none is.
func outcomeList(on map[string]bool) string {
	var outs []string
	for _, o := range []string{"error", "timeout", "rejected"} {
		if on[o] {
			outs = append(outs, strconv.Quote(o))
		}
	}
	if len(outs) == 0 {
		return ""
	}
	return "[" + strings.Join(outs, ", ") + "]"
}
