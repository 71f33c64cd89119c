package importer

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// hedgingPolicy maps a gRPC hedgingPolicy (gRFC A6, "Hedging Policy") onto
// ressim's hedge table, whose semantics are gRPC's: maxAttempts copies at
// most, the first included (gRPC lowers a value above 5 to 5, and so does
// the import, with a warning), each further copy hedgingDelay after the
// one before (default 0: every copy at once), and nonFatalStatusCodes
// mapped to outcomes as retryableStatusCodes are (default none: every
// failure ends the call).
func (g *grpcReader) hedgingPolicy(n *yaml.Node, s src) (string, bool) {
	if n.Kind != yaml.MappingNode {
		g.fail(s, "must be an object {maxAttempts, hedgingDelay, nonFatalStatusCodes}")
		return "", false
	}
	attempts := 0
	delay, hasDelay := time.Duration(0), false
	var nonFatal []string
	ok := true
	for _, f := range g.grpcFields(n, s.key, grpcHedgingPolicyKeys) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "maxAttempts":
			attempts = g.attempts(f.value, fs)
			ok = ok && attempts > 0
		case "hedgingDelay":
			d, dok := g.durationFrom(f.value, fs, true)
			delay, hasDelay, ok = d, true, ok && dok
		case "nonFatalStatusCodes":
			on, cok := g.statusCodes(f.value, fs, "non-fatal")
			nonFatal, ok = on, ok && cok
		default:
			g.warn(fs, "not a hedgingPolicy field; ignored")
		}
	}
	if attempts == 0 {
		if ok {
			g.fail(s, "a hedgingPolicy needs maxAttempts > 1 (gRFC A6)")
		}
		return "", false
	}
	if !hasDelay {
		g.warn(s, "no hedgingDelay: gRPC's default 0s sends all %d copies of every call at once, up to %d times the load", attempts, attempts)
	}
	v := fmt.Sprintf("{ attempts = %d, delay = %q", attempts, delay)
	if len(nonFatal) > 0 {
		v += fmt.Sprintf(", non_fatal = [%s]", strings.Join(nonFatal, ", "))
	}
	return v + " }", ok
}

// retryOrHedge refuses a method config that has both a retryPolicy and a
// hedgingPolicy, as gRPC does (gRFC A6: an RPC is governed by a retry
// policy or a hedging policy, but not both); the second one met is the
// error, naming where the first one is.
func (g *grpcReader) retryOrHedge(first, second src) {
	g.fail(second, "a method config has a retryPolicy or a hedgingPolicy, not both (gRFC A6; gRPC refuses the service config): the other is at %s:%d:%d",
		first.file, first.line, first.col)
}
