package importer

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// istioVSIgnored are VirtualService spec fields outside the model.
var istioVSIgnored = map[string]string{
	"gateways": "gateways are not modelled: the routes apply to the skeleton's caller",
	"exportTo": "visibility is not modelled",
	"tcp":      "TCP routes carry no timeout or retries",
	"tls":      "TLS routes carry no timeout or retries",
}

// virtualService maps each http route's timeout and retries onto the call
// to its destination host. hosts (what the rule matches) is read but
// gives no setting.
func (g *istioReader) virtualService(spec *yaml.Node, key string) {
	for _, f := range fields(spec) {
		s := at(g.file, f.kpos, key+"."+f.key)
		switch {
		case f.key == "hosts":
		case f.key == "http" && f.value.Kind == yaml.SequenceNode:
			for i, r := range f.value.Content {
				g.httpRoute(r, fmt.Sprintf("%s.http[%d]", key, i))
			}
		case istioVSIgnored[f.key] != "":
			g.warn(s, "not modelled: %s", istioVSIgnored[f.key])
		default:
			g.warn(s, "not a VirtualService field ressim knows; ignored")
		}
	}
}

// httpRoute maps one http[] entry. Its destinations must share one host
// (subsets and weights are not modelled); without retries, Istio's
// default retry policy applies and is imported, with a warning.
func (g *istioReader) httpRoute(n *yaml.Node, key string) {
	host, hs := g.destination(n, key)
	if host == "" {
		return
	}
	c := g.call(host, hs)
	var retries, timeout *field
	for _, f := range fields(n) {
		f := f
		fs := at(g.file, f.kpos, key+"."+f.key)
		switch f.key {
		case "route", "name":
		case "timeout":
			timeout = &f
		case "retries":
			retries = &f
		case "match":
			g.warn(fs, "not modelled: the route's settings apply to every call to its destination")
		case "fault":
			g.warn(fs, "not imported: fault injection is a test, not a setting (write a [[fault]] by hand to simulate it)")
		default:
			g.warn(fs, "not modelled; ignored")
		}
	}
	if retries != nil {
		g.retries(retries.value, at(g.file, retries.kpos, key+".retries"), c)
	} else {
		g.defaultRetries(at(g.file, n, key), c)
	}
	if timeout != nil {
		ts := at(g.file, timeout.kpos, key+".timeout")
		if d, ok := g.duration(timeout.value, ts); ok && !hasKey(c, "timeout", g.file) {
			c.set("timeout", d, ts)
			g.warn(ts, "the route timeout bounds all attempts; ressim's timeout bounds each: imported as the per-attempt timeout unless retries.perTryTimeout is set")
		}
	}
}

// destination returns the single host of a route's destinations.
func (g *istioReader) destination(n *yaml.Node, key string) (string, src) {
	var host string
	var hs src
	for _, f := range fields(n) {
		if f.key != "route" || f.value.Kind != yaml.SequenceNode {
			continue
		}
		for i, d := range f.value.Content {
			for _, df := range fields(d) {
				if df.key == "weight" {
					// A weighted split (80/20 between subsets or hosts)
					// would need a call with several targets, which
					// ressim does not have yet: say so instead of
					// dropping it (issue 24).
					g.warn(at(g.file, df.kpos, fmt.Sprintf("%s.route[%d].weight", key, i)),
						"not modelled: the route's weighted split (%s%% here); every request goes to the one destination host imported", df.value.Value)
					continue
				}
				if df.key != "destination" {
					if df.key != "headers" {
						g.warn(at(g.file, df.kpos, fmt.Sprintf("%s.route[%d].%s", key, i, df.key)), "not modelled; ignored")
					}
					continue
				}
				for _, h := range fields(df.value) {
					if h.key == "subset" {
						g.warn(at(g.file, h.kpos, fmt.Sprintf("%s.route[%d].destination.subset", key, i)),
							"not modelled: ressim has no subsets; the destination is the whole host %s", hostOf(df.value))
						continue
					}
					if h.key != "host" {
						continue
					}
					ds := at(g.file, h.value, fmt.Sprintf("%s.route[%d].destination.host", key, i))
					if host != "" && h.value.Value != host {
						g.warn(ds, "a second destination host (%q after %q): traffic splitting between hosts is not modelled; ignored", h.value.Value, host)
						continue
					}
					host, hs = h.value.Value, ds
				}
			}
		}
	}
	if host == "" {
		g.warn(at(g.file, n, key), "no route destination host (redirects, direct responses and delegates are not modelled); ignored")
	}
	return host, hs
}

// hostOf is a destination's host, quoted, or "(none)".
func hostOf(dest *yaml.Node) string {
	for _, f := range fields(dest) {
		if f.key == "host" {
			return strconv.Quote(f.value.Value)
		}
	}
	return "(none)"
}

// istioDefaultRetries are the attempts and conditions Istio uses when a
// route sets no retries: 2 retries on connect-failure, refused-stream,
// unavailable, cancelled and retriable-status-codes (503).
func (g *istioReader) defaultRetries(s src, c *callOut) {
	g.warn(s, "no retries: Istio's default applies (2 retries on connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes, unless the mesh's defaultHttpRetryPolicy changes it); imported as that")
	c.set("retry.attempts", "3", s)
	c.set("retry.backoff", `"full_jitter"`, s)
	c.set("retry.base", `"25ms"`, s)
	c.set("retry.on", `["error", "rejected"]`, s)
}

// retries maps an HTTPRetry: attempts are retries (attempts + 1 tries),
// Envoy's full-jitter backoff from `backoff` (default 25 ms).
func (g *istioReader) retries(n *yaml.Node, s src, c *callOut) {
	attempts, base, on := "3", `"25ms"`, "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes"
	ons := s
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "attempts":
			k, err := strconv.Atoi(f.value.Value)
			if err != nil || k < 0 || k > 99 {
				g.fail(fs, "want an integer in [0, 99], got %q", f.value.Value)
				continue
			}
			attempts = strconv.Itoa(k + 1)
		case "perTryTimeout":
			if d, ok := g.duration(f.value, fs); ok {
				c.set("timeout", d, fs)
			}
		case "backoff":
			if d, ok := g.duration(f.value, fs); ok {
				base = d
			}
		case "retryOn":
			on, ons = f.value.Value, fs
		default:
			g.warn(fs, "not modelled; ignored")
		}
	}
	outs := g.retryOn(on, ons)
	if outs == "" {
		return
	}
	c.set("retry.attempts", attempts, s)
	c.set("retry.backoff", `"full_jitter"`, s)
	c.set("retry.base", base, s)
	c.set("retry.on", outs, s)
}

// retryOn maps Istio's retryOn (Envoy's retry_on and gRPC conditions, or
// HTTP status codes) to ressim's outcomes.
func (g *istioReader) retryOn(v string, s src) string {
	on := map[string]bool{}
	for _, cond := range strings.Split(v, ",") {
		cond = strings.TrimSpace(cond)
		outs, ok := envoyRetryOn[cond]
		if code, err := strconv.Atoi(cond); err == nil {
			switch {
			case code == 429:
				outs, ok = []string{"rejected"}, true
			case code >= 500 && code <= 599:
				outs, ok = []string{"error"}, true
			}
		}
		if !ok {
			g.warn(s, "retryOn %q is not modelled; ignored", cond)
		}
		for _, o := range outs {
			on[o] = true
		}
	}
	outs := outcomeList(on)
	if outs == "" {
		g.fail(s, "retryOn names no condition ressim models (e.g. 5xx, connect-failure, reset, 503)")
	}
	return outs
}
