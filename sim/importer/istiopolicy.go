package importer

import (
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// istioPolicyIgnored are trafficPolicy fields outside the model.
var istioPolicyIgnored = map[string]string{
	"tls":               "TLS is not modelled",
	"portLevelSettings": "ressim has no ports: only the host-level policy is imported",
	"tunnel":            "tunnelling is not modelled",
	"proxyProtocol":     "the PROXY protocol is not modelled",
}

// trafficPolicy maps a DestinationRule's trafficPolicy.
func (g *istioReader) trafficPolicy(n *yaml.Node, s src, c *callOut) {
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "connectionPool":
			g.connectionPool(f.value, fs, c)
		case "outlierDetection":
			g.outlier(f.value, fs, c.service)
		case "loadBalancer":
			g.loadBalancer(f.value, fs, c.service)
		case "retryBudget":
			g.retryBudget(f.value, fs, c)
		default:
			if why := istioPolicyIgnored[f.key]; why != "" {
				g.warn(fs, "not modelled: %s", why)
			} else {
				g.warn(fs, "not a trafficPolicy field ressim knows; ignored")
			}
		}
	}
}

// connectionPool maps connectionPool as the Envoy import maps the
// circuit_breakers Istio generates from it: http2MaxRequests is Envoy's
// max_requests (the bulkhead), maxRetries its max_retries; the connection
// limits have no counterpart.
func (g *istioReader) connectionPool(n *yaml.Node, s src, c *callOut) {
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "tcp":
			for _, t := range fields(f.value) {
				g.warn(at(g.file, t.kpos, fs.key+"."+t.key), "not modelled: ressim has no connections (http.http2MaxRequests is the bulkhead)")
			}
		case "http":
			g.httpPool(f.value, fs, c)
		default:
			g.warn(fs, "not a connectionPool field; ignored")
		}
	}
}

func (g *istioReader) httpPool(n *yaml.Node, s src, c *callOut) {
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "http2MaxRequests":
			if v, ok := g.count(f.value, fs); ok {
				c.set("bulkhead.max_concurrent", v, fs)
				c.set("bulkhead.max_wait", `"0s"`, fs)
			}
		case "maxRetries":
			if v, ok := g.count(f.value, fs); ok && !hasKey(c, "retry_budget.kind", g.file) {
				g.warn(fs, "imported as a concurrency budget of budget_percent 0 and min_retry_concurrency %s: at most that many retries in flight", v)
				c.set("retry_budget.kind", `"concurrency"`, fs)
				c.set("retry_budget.budget_percent", "0", fs)
				c.set("retry_budget.min_retry_concurrency", v, fs)
			}
		case "http1MaxPendingRequests":
			g.warn(fs, "not modelled: ressim has no connection pool to wait for (http2MaxRequests is the bulkhead, which refuses at once when full)")
		default:
			g.warn(fs, "not modelled: connection behaviour is outside the model")
		}
	}
}

// retryBudget maps trafficPolicy.retryBudget exactly onto ressim's
// concurrency budget (Envoy's); Istio's defaults are 20 % and 3.
func (g *istioReader) retryBudget(n *yaml.Node, s src, c *callOut) {
	c.set("retry_budget.kind", `"concurrency"`, s)
	c.set("retry_budget.budget_percent", "20", s)
	c.set("retry_budget.min_retry_concurrency", "3", s)
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		v := f.value.Value
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case f.key != "percent" && f.key != "minRetryConcurrency":
			g.warn(fs, "not modelled; ignored")
		case f.value.Kind != yaml.ScalarNode || err != nil || x < 0 || f.key == "percent" && x > 100:
			g.fail(fs, "value %q out of range", v)
		case f.key == "percent":
			c.set("retry_budget.budget_percent", strconv.FormatFloat(x, 'g', -1, 64), fs)
		default:
			if k, err := strconv.Atoi(v); err != nil || k > 1<<24 {
				g.fail(fs, "want an integer in [0, 16777216], got %q", v)
			} else {
				c.set("retry_budget.min_retry_concurrency", v, fs)
			}
		}
	}
}

// istioBalancers maps loadBalancer.simple onto ressim's balancers. Envoy's
// least-request balancer, which Istio configures for LEAST_REQUEST (and
// by default), picks the less loaded of two random hosts: power_of_two.
var istioBalancers = map[string]string{"ROUND_ROBIN": "round_robin", "RANDOM": "random",
	"LEAST_REQUEST": "power_of_two", "LEAST_CONN": "power_of_two", "UNSPECIFIED": "power_of_two"}

func (g *istioReader) loadBalancer(n *yaml.Node, s src, svc string) {
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "simple":
			b, ok := istioBalancers[f.value.Value]
			if !ok {
				g.fail(fs, "%q: ressim's balancers are ROUND_ROBIN, RANDOM and LEAST_REQUEST (PASSTHROUGH is not modelled)", f.value.Value)
				continue
			}
			if f.value.Value == "UNSPECIFIED" {
				g.warn(fs, "Istio picks its default, LEAST_REQUEST: imported as power_of_two")
			}
			g.sk.service(svc, setting{"balancer", strconv.Quote(b), fs})
		case "consistentHash":
			g.warn(fs, "not modelled: consistent hashing (the callee keeps ressim's default balancer, round_robin)")
		default:
			g.warn(fs, "not modelled: locality and warm-up are outside the model")
		}
	}
}

// outlier maps outlierDetection onto the callee's outlier table (ressim's
// outlier policy is Envoy's consecutive-5xx detection).
func (g *istioReader) outlier(n *yaml.Node, s src, svc string) {
	var sts []setting
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		if f.key == "consecutive5xxErrors" && f.value.Value == "0" {
			g.warn(fs, "0 turns Istio's 5xx detection off; the outlier detection is not imported")
			return
		}
		var key, v string
		ok := true
		switch f.key {
		case "consecutive5xxErrors", "consecutiveErrors":
			key = "consecutive_5xx"
			if v, ok = g.count(f.value, fs); ok && f.key == "consecutiveErrors" {
				g.warn(fs, "approximate: the deprecated consecutiveErrors counts gateway errors (502, 503, 504); ressim's detector counts every error")
			}
		case "interval", "baseEjectionTime":
			key = map[string]string{"interval": "interval", "baseEjectionTime": "base_ejection_time"}[f.key]
			v, ok = g.duration(f.value, fs)
		case "maxEjectionPercent":
			key = "max_ejection_percent"
			if v, ok = g.count(f.value, fs); ok && mustAtoi(v) > 100 {
				g.fail(fs, "a percentage is at most 100, got %s", v)
				ok = false
			}
		default:
			g.warn(fs, "not modelled: ressim ejects on consecutive errors only")
			ok = false
		}
		if ok {
			sts = append(sts, setting{"outlier." + key, v, fs})
		}
		if ok && key == "base_ejection_time" {
			// Envoy's max_ejection_time, which Istio leaves unset, is
			// 300 s or base_ejection_time, whichever is longer.
			if d, _ := time.ParseDuration(f.value.Value); d > 300*time.Second {
				sts = append(sts, setting{"outlier.max_ejection_time", v, fs})
			}
		}
	}
	g.sk.service(svc, setting{"outlier", "{}", s})
	percent := false
	for _, st := range sts {
		g.sk.service(svc, st)
		percent = percent || st.key == "outlier.max_ejection_percent"
	}
	if !percent {
		// istio.io networking/v1alpha3/destination_rule.proto,
		// OutlierDetection.maxEjectionPercent: "Defaults to 10%"; ressim's
		// is 50.
		g.sk.service(svc, setting{"outlier.max_ejection_percent", "10", src{s.file, s.line, s.col, s.key + ".maxEjectionPercent(default)"}})
	}
}

func mustAtoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
