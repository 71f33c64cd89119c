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
	host, hs, split := g.destination(n, key)
	if host == "" {
		return
	}
	c := g.call(host, hs)
	if len(split) > 0 {
		c.split = split
	}
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

// destination reads an http route's destinations: the host its call is
// keyed by, and, when the route splits its traffic by weight between two
// or more destinations (Istio's 80/20 between subsets), the branches of
// a choose step, each destination a service of its own named host-subset
// (a DestinationRule's host-level policy goes to every branch).
func (g *istioReader) destination(n *yaml.Node, key string) (string, src, []branch) {
	ds := g.destinations(n, key)
	if len(ds) == 0 {
		g.warn(at(g.file, n, key), "no route destination host (redirects, direct responses and delegates are not modelled); ignored")
		return "", src{}, nil
	}
	if len(ds) == 1 {
		return g.whole(ds[0])
	}
	var split []branch
	var live []routeDest // the destinations split keeps, in its order
	for _, d := range ds {
		w, err := strconv.ParseFloat(d.weight, 64)
		if err == nil && w == 0 {
			continue // Istio: a 0 weight gets no traffic
		}
		if err != nil || w < 0 || w > 100 {
			g.fail(d.from, "a route with several destinations needs a weight in (0, 100] on each, got %q", d.weight)
			return "", src{}, nil
		}
		name := d.host
		if d.subset != "" {
			name = d.host + "-" + d.subset
		}
		if !goodName(name) {
			g.fail(d.from, "destination %q is not a valid ressim service name (1-64 letters, digits, '-', '_', '.')", name)
			return "", src{}, nil
		}
		split = append(split, branch{service: name, weight: d.weight, from: d.from, wfrom: d.wfrom})
		live = append(live, d)
	}
	if len(live) == 1 { // the others weigh 0: the route has one destination
		return g.whole(live[0])
	}
	return ds[0].host, ds[0].from, split
}

// whole is the destination of a route that sends all its traffic to d:
// its host, a subset of it not being modelled.
func (g *istioReader) whole(d routeDest) (string, src, []branch) {
	if d.subset != "" {
		g.warn(d.from, "not modelled: a single subset; the destination is the whole host %s", strconv.Quote(d.host))
	}
	return d.host, d.from, nil
}

// routeDest is one destination of an http route, with its weight.
type routeDest struct {
	host, subset, weight string
	from, wfrom          src
}

// destinations reads an http route's route[] entries that name a host.
func (g *istioReader) destinations(n *yaml.Node, key string) []routeDest {
	var ds []routeDest
	for _, f := range fields(n) {
		if f.key != "route" || f.value.Kind != yaml.SequenceNode {
			continue
		}
		for i, d := range f.value.Content {
			var de routeDest
			for _, df := range fields(d) {
				dkey := fmt.Sprintf("%s.route[%d].%s", key, i, df.key)
				switch df.key {
				case "weight":
					de.weight, de.wfrom = df.value.Value, at(g.file, df.kpos, dkey)
				case "destination":
					for _, h := range fields(df.value) {
						switch h.key {
						case "host":
							de.host, de.from = h.value.Value, at(g.file, h.value, dkey+".host")
						case "subset":
							de.subset = h.value.Value
						}
					}
				case "headers":
				default:
					g.warn(at(g.file, df.kpos, dkey), "not modelled; ignored")
				}
			}
			if de.host != "" {
				ds = append(ds, de)
			}
		}
	}
	return ds
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
