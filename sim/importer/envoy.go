package importer

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// envoyReader reads Envoy v3 clusters and route configurations (YAML or
// JSON): every "clusters" list and every "virtual_hosts" list anywhere in
// the document, so a bootstrap, a RouteConfiguration or a bare list of
// clusters all work. The scaffolding around them (listeners, filter
// chains, admin) is not reported.
type envoyReader struct {
	file  string
	sk    *skeleton
	warns []Diag
	errs  Errors
	calls map[string]int // cluster name -> index in sk.calls
}

func (g *envoyReader) warn(s src, format string, a ...any) {
	g.warns = append(g.warns, s.diag(format, a...))
}
func (g *envoyReader) fail(s src, format string, a ...any) {
	g.errs = append(g.errs, s.diag(format, a...))
}

func (g *envoyReader) document(root *yaml.Node) {
	var clusters, vhosts []*yaml.Node
	var keys []string
	var find func(n *yaml.Node, key string, depth int)
	find = func(n *yaml.Node, key string, depth int) {
		if depth > 64 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for _, f := range fields(n) {
				k := strings.TrimPrefix(key+"."+f.key, ".")
				switch {
				case f.key == "clusters" && f.value.Kind == yaml.SequenceNode:
					clusters = append(clusters, f.value)
					keys = append(keys, k)
				case f.key == "virtual_hosts" && f.value.Kind == yaml.SequenceNode:
					vhosts = append(vhosts, f.value)
				default:
					find(f.value, k, depth+1)
				}
			}
		case yaml.SequenceNode:
			for i, e := range n.Content {
				find(e, fmt.Sprintf("%s[%d]", key, i), depth+1)
			}
		}
	}
	find(root, "", 0)
	for i, cs := range clusters {
		for j, c := range cs.Content {
			g.cluster(c, fmt.Sprintf("%s[%d]", keys[i], j))
		}
	}
	for _, vs := range vhosts {
		for _, vh := range vs.Content {
			g.virtualHost(vh)
		}
	}
}

// call returns the call to a cluster, created on first use.
func (g *envoyReader) call(name string, s src) *callOut {
	if i, ok := g.calls[name]; ok {
		return &g.sk.calls[i]
	}
	if !goodName(name) {
		g.fail(s, "cluster %q is not a valid ressim service name (1-64 letters, digits, '-', '_', '.'; not \".\", \"..\" or the skeleton's \"caller\")", name)
		name = "invalid"
	}
	g.calls[name] = len(g.sk.calls)
	g.sk.calls = append(g.sk.calls, callOut{service: name, from: s, sk: g.sk})
	return &g.sk.calls[len(g.sk.calls)-1]
}

// envoyClusterIgnored are cluster fields outside the model, with why.
var envoyClusterIgnored = map[string]string{
	"connect_timeout":                  "connection setup is not modelled",
	"type":                             "service discovery is not modelled",
	"load_assignment":                  "endpoints are the callee's instances: set `instances` by hand",
	"common_lb_config":                 "set the callee's `balancer` by hand",
	"dns_lookup_family":                "service discovery is not modelled",
	"transport_socket":                 "TLS is not modelled",
	"typed_extension_protocol_options": "protocol options are not modelled",
	"http2_protocol_options":           "protocol options are not modelled",
	"health_checks":                    "active health checking is not modelled (use readiness on the callee)",
}

func (g *envoyReader) cluster(n *yaml.Node, key string) {
	var name string
	for _, f := range fields(n) {
		if f.key == "name" {
			name = f.value.Value
		}
	}
	if name == "" {
		g.fail(at(g.file, n, key), "a cluster needs a name")
		return
	}
	c := g.call(name, at(g.file, n, key))
	for _, f := range fields(n) {
		s := at(g.file, f.kpos, key+"."+f.key)
		switch f.key {
		case "name":
		case "circuit_breakers":
			g.breakers(f.value, s, c)
		case "outlier_detection":
			g.outlier(f.value, s, name)
		case "lb_policy":
			g.lbPolicy(f.value, s, c.service)
		default:
			if why, ok := envoyClusterIgnored[f.key]; ok {
				g.warn(s, "not modelled: %s", why)
			} else {
				g.warn(s, "not modelled; ignored")
			}
		}
	}
	g.breakerDefaults(at(g.file, n, key), c)
}

// envoyBalancers maps a cluster's lb_policy onto ressim's balancers
// (envoy/config/cluster/v3/cluster.proto, LbPolicy). Envoy's
// LEAST_REQUEST picks the less loaded of choice_count random hosts,
// default 2 (LeastRequestLbConfig): power_of_two. ROUND_ROBIN is Envoy's
// default and ressim's.
var envoyBalancers = map[string]string{"ROUND_ROBIN": "round_robin", "LEAST_REQUEST": "power_of_two", "RANDOM": "random"}

// lbPolicy maps lb_policy onto the callee's balancer; the hashing and
// provided policies are not modelled.
func (g *envoyReader) lbPolicy(n *yaml.Node, s src, svc string) {
	b, ok := envoyBalancers[n.Value]
	if !ok {
		g.warn(s, "%s is not modelled (ressim balances by round_robin, random or power_of_two): the callee keeps round_robin, Envoy's default", strconv.Quote(n.Value))
		return
	}
	g.sk.service(svc, setting{"balancer", strconv.Quote(b), s})
}

// breakerDefaults gives a cluster the DEFAULT-priority thresholds it
// leaves out: envoy/config/cluster/v3/circuit_breaker.proto, "If no
// Thresholds is defined for a given RoutingPriority, the default values
// are used": max_requests "If not specified, the default is 1024",
// max_retries "The maximum number of parallel retries ... If not
// specified, the default is 3" (a retry_budget, when set, overrides it).
// Every Envoy cluster has them, so a retry storm through Envoy runs into
// 3 retries in flight per cluster: imported without them, the simulated
// storm had no such bound.
func (g *envoyReader) breakerDefaults(s src, c *callOut) {
	th := s.key + ".circuit_breakers.thresholds"
	if !hasKey(c, "bulkhead.max_concurrent", g.file) {
		ds := src{s.file, s.line, s.col, th + ".max_requests(default)"}
		c.set("bulkhead.max_concurrent", "1024", ds)
		c.set("bulkhead.max_wait", `"0s"`, ds)
	}
	if !hasKey(c, "retry_budget.kind", g.file) {
		ds := src{s.file, s.line, s.col, th + ".max_retries(default)"}
		c.set("retry_budget.kind", `"concurrency"`, ds)
		c.set("retry_budget.budget_percent", "0", ds)
		c.set("retry_budget.min_retry_concurrency", "3", ds)
		g.warn(ds, "no max_retries or retry_budget: Envoy's default retry circuit breaker allows 3 retries in flight to the cluster (CircuitBreakers.Thresholds.max_retries), imported as a concurrency budget of budget_percent 0 and min_retry_concurrency 3")
	}
}

// breakers maps circuit_breakers.thresholds (priority DEFAULT).
func (g *envoyReader) breakers(n *yaml.Node, s src, c *callOut) {
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		if f.key != "thresholds" || f.value.Kind != yaml.SequenceNode {
			g.warn(fs, "not modelled; ignored")
			continue
		}
		for i, th := range f.value.Content {
			g.threshold(th, at(g.file, th, fmt.Sprintf("%s[%d]", fs.key, i)), c)
		}
	}
}

func (g *envoyReader) threshold(n *yaml.Node, s src, c *callOut) {
	for _, f := range fields(n) {
		if f.key == "priority" && f.value.Value != "DEFAULT" {
			g.warn(at(g.file, f.value, s.key+".priority"), "only DEFAULT-priority thresholds are modelled; this one is ignored")
			return
		}
	}
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "priority":
		case "max_requests":
			if g.positive(f.value, fs) {
				c.set("bulkhead.max_concurrent", f.value.Value, fs)
				c.set("bulkhead.max_wait", `"0s"`, fs)
			}
		case "max_retries":
			if g.positive(f.value, fs) && !hasKey(c, "retry_budget.kind", g.file) {
				g.warn(fs, "imported as a concurrency budget of budget_percent 0 and min_retry_concurrency %s: at most that many retries in flight", f.value.Value)
				c.set("retry_budget.kind", `"concurrency"`, fs)
				c.set("retry_budget.budget_percent", "0", fs)
				c.set("retry_budget.min_retry_concurrency", f.value.Value, fs)
			}
		case "retry_budget":
			g.retryBudget(f.value, fs, c)
		case "max_connections", "max_pending_requests", "max_connection_pools":
			g.warn(fs, "not modelled: ressim has no connection pool (max_requests is the bulkhead)")
		default:
			g.warn(fs, "not modelled; ignored")
		}
	}
}

// hasKey reports whether c has setting k from file: the precedence rules
// of one file (a per-try timeout over the route's) look only at that
// file's settings; what another file set meets them in merge.
func hasKey(c *callOut, k, file string) bool {
	for _, s := range c.settings {
		if s.key == k && s.from.file == file {
			return true
		}
	}
	return false
}

func (g *envoyReader) positive(n *yaml.Node, s src) bool {
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < 1 || v > 1<<24 {
		g.fail(s, "want an integer in [1, 16777216], got %q", n.Value)
		return false
	}
	return true
}

// retryBudget maps a threshold's retry_budget exactly onto ressim's
// concurrency budget (Envoy's own semantics: retries in flight at most
// budget_percent of the requests in flight, but at least
// min_retry_concurrency). Envoy's defaults are 20 % and 3.
func (g *envoyReader) retryBudget(n *yaml.Node, s src, c *callOut) {
	c.set("retry_budget.kind", `"concurrency"`, s)
	c.set("retry_budget.budget_percent", "20", s)
	c.set("retry_budget.min_retry_concurrency", "3", s)
	for _, f := range fields(n) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		v := f.value.Value
		if f.key == "budget_percent" {
			for _, p := range fields(f.value) {
				if p.key == "value" {
					v = p.value.Value
				}
			}
		}
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case f.key != "budget_percent" && f.key != "min_retry_concurrency":
			g.warn(fs, "not modelled; ignored")
		case err != nil || x < 0 || f.key == "budget_percent" && x > 100:
			g.fail(fs, "value %q out of range", v)
		case f.key == "budget_percent":
			c.set("retry_budget.budget_percent", v, fs)
		default:
			if _, err := strconv.Atoi(v); err != nil {
				g.fail(fs, "want an integer, got %q", v)
			} else {
				c.set("retry_budget.min_retry_concurrency", v, fs)
			}
		}
	}
}
