package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// istioReader reads Istio networking resources (networking.istio.io v1,
// v1beta1, v1alpha3), one per YAML document: DestinationRule
// (trafficPolicy's connectionPool, outlierDetection, loadBalancer,
// retryBudget) and VirtualService (http[].timeout, retries). Each host
// becomes a callee service and one call of the caller. Other kinds are
// warned about and skipped.
type istioReader struct {
	file  string
	sk    *skeleton
	warns []Diag
	errs  Errors
	calls map[string]int // host -> index in sk.calls
}

func (g *istioReader) warn(s src, format string, a ...any) {
	g.warns = append(g.warns, s.diag(format, a...))
}
func (g *istioReader) fail(s src, format string, a ...any) {
	g.errs = append(g.errs, s.diag(format, a...))
}

// document reads one Kubernetes resource.
func (g *istioReader) document(root *yaml.Node, i int) {
	key := fmt.Sprintf("[%d]", i)
	if root.Kind != yaml.MappingNode {
		g.fail(at(g.file, root, key), "an Istio resource is a mapping")
		return
	}
	var kind, api string
	var spec field
	for _, f := range fields(root) {
		switch f.key {
		case "kind":
			kind = f.value.Value
		case "apiVersion":
			api = f.value.Value
		case "spec":
			spec = f
		}
	}
	if kind != "DestinationRule" && kind != "VirtualService" || !strings.HasPrefix(api, "networking.istio.io/") {
		g.warn(at(g.file, root, key), "%s %s is not a DestinationRule or VirtualService of networking.istio.io; ignored", api, kind)
		return
	}
	for _, f := range fields(root) {
		if f.key != "kind" && f.key != "apiVersion" && f.key != "spec" && f.key != "metadata" && f.key != "status" {
			g.warn(at(g.file, f.kpos, kind+"."+f.key), "not a field of a Kubernetes resource; ignored")
		}
	}
	if spec.value == nil || spec.value.Kind != yaml.MappingNode {
		g.fail(at(g.file, root, kind), "a %s needs a spec mapping", kind)
		return
	}
	if kind == "DestinationRule" {
		g.destinationRule(spec.value, kind+".spec")
	} else {
		g.virtualService(spec.value, kind+".spec")
	}
}

// call returns the call to a host, created on first use.
func (g *istioReader) call(host string, s src) *callOut {
	if i, ok := g.calls[host]; ok {
		return &g.sk.calls[i]
	}
	name := host
	if !goodName(name) {
		g.fail(s, "host %q is not a valid ressim service name (1-64 letters, digits, '-', '_', '.'; no wildcards; not \".\", \"..\" or the skeleton's \"caller\")", host)
		name = "invalid"
	} else {
		// Istio's default load balancer since 1.14 is LEAST_REQUEST
		// (loadBalancer.simple UNSPECIFIED: "Istio will select an
		// appropriate default"), not ressim's round_robin; a
		// DestinationRule's loadBalancer replaces it.
		g.sk.service(name, setting{"balancer", strconv.Quote(istioBalancers["LEAST_REQUEST"]),
			src{s.file, s.line, s.col, "DestinationRule.spec.trafficPolicy.loadBalancer.simple(default)"}})
	}
	g.calls[host] = len(g.sk.calls)
	g.sk.calls = append(g.sk.calls, callOut{service: name, from: s, sk: g.sk})
	return &g.sk.calls[len(g.sk.calls)-1]
}

// istioDRIgnored are DestinationRule spec fields outside the model.
var istioDRIgnored = map[string]string{
	"subsets":          "ressim has no subsets: the host-level trafficPolicy is imported, subset policies are not",
	"exportTo":         "visibility is not modelled",
	"workloadSelector": "every caller of the skeleton uses the rule",
}

func (g *istioReader) destinationRule(spec *yaml.Node, key string) {
	var host field
	for _, f := range fields(spec) {
		if f.key == "host" {
			host = f
		}
	}
	if host.value == nil || host.value.Value == "" {
		g.fail(at(g.file, spec, key), "a DestinationRule needs a host")
		return
	}
	c := g.call(host.value.Value, at(g.file, host.value, key+".host"))
	for _, f := range fields(spec) {
		s := at(g.file, f.kpos, key+"."+f.key)
		switch f.key {
		case "host":
		case "trafficPolicy":
			g.trafficPolicy(f.value, s, c)
		default:
			if why, ok := istioDRIgnored[f.key]; ok {
				g.warn(s, "not modelled: %s", why)
			} else {
				g.warn(s, "not a DestinationRule field ressim knows; ignored")
			}
		}
	}
}

// duration reads an Istio duration ("1h", "3m", "1.5s", "10ms"): Go's
// syntax, at least 1 ms (Istio's minimum), at most 100 days.
func (g *istioReader) duration(n *yaml.Node, s src) (string, bool) {
	d, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || d < time.Millisecond || d > 100*24*time.Hour {
		g.fail(s, "want a duration such as \"1s\" or \"10ms\", at least 1ms and at most 100 days, got %q", n.Value)
		return "", false
	}
	return strconv.Quote(d.String()), true
}

// count reads a non-negative integer limit; ok is false for 0 (Istio's
// "unset": its default applies) and for an invalid value (an error).
func (g *istioReader) count(n *yaml.Node, s src) (string, bool) {
	v, err := strconv.Atoi(n.Value)
	switch {
	case n.Kind != yaml.ScalarNode || err != nil || v < 0 || v > 1<<31-1:
		g.fail(s, "want an integer in [0, 2147483647], got %q", n.Value)
	case v == 0:
		g.warn(s, "0 means Istio's default; not imported")
	case v > 1<<24:
		g.warn(s, "%d is no limit in practice; not imported", v)
	default:
		return n.Value, true
	}
	return "", false
}
