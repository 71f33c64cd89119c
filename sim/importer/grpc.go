package importer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// grpcReader reads one gRPC service config (gRFC A6, "gRPC Retry Design",
// and grpc/doc/service_config.md).
type grpcReader struct {
	file     string
	sk       *skeleton
	warns    []Diag
	errs     Errors
	throttle *setting // retryThrottling mapped, applied to every retrying call
	first    int      // index in sk.calls of this file's first call
}

func (g *grpcReader) warn(s src, format string, a ...any) {
	g.warns = append(g.warns, s.diag(format, a...))
}
func (g *grpcReader) fail(s src, format string, a ...any) {
	g.errs = append(g.errs, s.diag(format, a...))
}

// notModelled are service-config fields ressim has no counterpart for.
var notModelled = map[string]string{
	"loadBalancingPolicy":     "the balancer is the callee's `balancer` key; set it by hand",
	"loadBalancingConfig":     "the balancer is the callee's `balancer` key; set it by hand",
	"healthCheckConfig":       "client-side health checking is not modelled",
	"waitForReady":            "calls never wait for a connection in the model",
	"maxRequestMessageBytes":  "message sizes are not modelled",
	"maxResponseMessageBytes": "message sizes are not modelled",
}

func (g *grpcReader) serviceConfig(root *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		g.fail(at(g.file, root, "(root)"), "a service config is a JSON object")
		return
	}
	g.first = len(g.sk.calls)
	for _, f := range g.grpcFields(root, "(root)", grpcServiceConfigKeys) {
		s := at(g.file, f.kpos, f.key)
		switch f.key {
		case "methodConfig":
			if f.value.Kind != yaml.SequenceNode {
				g.fail(s, "must be an array")
				continue
			}
			for i, mc := range f.value.Content {
				g.methodConfig(mc, fmt.Sprintf("methodConfig[%d]", i))
			}
		case "retryThrottling":
			g.throttling(f.value, s)
		default:
			if why, ok := notModelled[f.key]; ok {
				g.warn(s, "not modelled: %s", why)
			} else {
				g.warn(s, "not a gRPC service config field; ignored")
			}
		}
	}
	if g.throttle != nil {
		for i := g.first; i < len(g.sk.calls); i++ {
			if retriesOrHedges(g.sk.calls[i]) {
				g.sk.calls[i].settings = append(g.sk.calls[i].settings, *g.throttle)
			}
		}
	}
}

// retriesOrHedges reports whether a call retries or hedges: gRPC's
// retryThrottling throttles both (gRFC A6, "Throttling Retry Attempts and
// Hedged RPCs"), and ressim's budget is drawn on by both.
func retriesOrHedges(c callOut) bool {
	for _, s := range c.settings {
		if s.key == "retry" || s.key == "hedge" {
			return true
		}
	}
	return false
}

// methodConfig reads one methodConfig entry: a call per name.
func (g *grpcReader) methodConfig(n *yaml.Node, key string) {
	var names []callOut
	var settings []setting
	var policy *src // the retryPolicy or hedgingPolicy met first
	for _, f := range g.grpcFields(n, key, grpcMethodConfigKeys) {
		s := at(g.file, f.kpos, key+"."+f.key)
		switch f.key {
		case "name":
			names = g.names(f.value, s)
		case "timeout":
			if d, ok := g.duration(f.value, s); ok {
				settings = append(settings, setting{"timeout", strconv.Quote(d.String()), s})
			}
		case "retryPolicy", "hedgingPolicy":
			if policy != nil {
				g.retryOrHedge(*policy, s)
				continue
			}
			policy = &s
			if f.key == "retryPolicy" {
				if v, ok := g.retryPolicy(f.value, s); ok {
					settings = append(settings, setting{"retry", v, s})
				}
			} else if v, ok := g.hedgingPolicy(f.value, s); ok {
				settings = append(settings, setting{"hedge", v, s})
			}
		default:
			if why, ok := notModelled[f.key]; ok {
				g.warn(s, "not modelled: %s", why)
			} else {
				g.warn(s, "not a methodConfig field; ignored")
			}
		}
	}
	if len(names) == 0 {
		g.warn(at(g.file, n, key), "no name: the entry applies to no method and is skipped")
	}
	for _, c := range names {
		// gRPC refuses a service config that names one method twice
		// (grpc-go: "duplicate method name"); so does the import, across
		// files too, since they configure one client.
		name := c.service + "/" + c.operation
		if i, dup := g.sk.byName[name]; dup {
			first := g.sk.calls[i].from
			g.fail(c.from, "%s is configured again (first at %s:%d:%d): gRPC refuses a method named twice", name, first.file, first.line, first.col)
			continue
		}
		g.sk.byName[name] = len(g.sk.calls)
		c.settings = settings
		g.sk.calls = append(g.sk.calls, c)
	}
}

// validName is ressim's rule for service names.
func validName(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// goodName reports whether an imported name can name a callee service:
// ressim's rule, which also refuses "." and "..", and not the skeleton's
// own calling service.
func goodName(s string) bool {
	return validName(s) && s != "." && s != ".." && s != "caller"
}

// names reads methodConfig[].name: {service, method} objects.
func (g *grpcReader) names(n *yaml.Node, s src) []callOut {
	if n.Kind != yaml.SequenceNode {
		g.fail(s, "must be an array of {service, method}")
		return nil
	}
	var out []callOut
	for i, e := range n.Content {
		es := at(g.file, e, fmt.Sprintf("%s[%d]", s.key, i))
		c := callOut{from: es}
		for _, f := range g.grpcFields(e, es.key, grpcNameKeys) {
			switch f.key {
			case "service":
				c.service = f.value.Value
			case "method":
				c.operation = f.value.Value
			default:
				g.warn(at(g.file, f.kpos, es.key+"."+f.key), "not a name field; ignored")
			}
		}
		switch {
		case c.service == "":
			g.warn(es, "an empty service (the default for every method) is imported as a service named \"default\"")
			c.service, c.operation = "default", ""
		case !goodName(c.service):
			g.fail(es, "service %q is not a valid ressim service name (1-64 letters, digits, '-', '_', '.'; not \".\", \"..\" or the skeleton's \"caller\")", c.service)
			continue
		}
		out = append(out, c)
	}
	return out
}

// durationInto is duration for other readers: errors go to errs.
func (g *grpcReader) durationInto(n *yaml.Node, s src, errs *Errors) (time.Duration, bool) {
	d, ok := g.duration(n, s)
	*errs = append(*errs, g.errs...)
	g.errs = nil
	return d, ok
}

// duration reads a protobuf JSON Duration: decimal seconds with an "s"
// suffix, e.g. "1.5s"; it must be positive.
func (g *grpcReader) duration(n *yaml.Node, s src) (time.Duration, bool) {
	return g.durationFrom(n, s, false)
}

// durationFrom is duration, accepting "0s" when zero is true (a
// hedgingDelay of 0 sends every copy at once).
func (g *grpcReader) durationFrom(n *yaml.Node, s src, zero bool) (time.Duration, bool) {
	v := n.Value
	if n.Kind != yaml.ScalarNode || !strings.HasSuffix(v, "s") {
		g.fail(s, "want a protobuf JSON duration such as \"1.5s\", got %q", v)
		return 0, false
	}
	secs, err := strconv.ParseFloat(strings.TrimSuffix(v, "s"), 64)
	switch {
	case zero && err == nil && secs >= 0 && secs <= 100*24*3600:
	case err != nil || secs <= 0 || secs > 100*24*3600:
		what := "positive"
		if zero {
			what = "non-negative"
		}
		g.fail(s, "duration %q must be a %s number of seconds, at most 100 days", v, what)
		return 0, false
	}
	return time.Duration(math.Round(secs * float64(time.Second))), true
}
