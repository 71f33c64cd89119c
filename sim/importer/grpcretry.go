package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// grpcCodes maps gRPC status codes (names and numbers) to ressim's
// retryable outcomes; "" marks a code ressim folds into "error".
var grpcCodes = map[string]string{
	"OK": "-", "CANCELLED": "", "UNKNOWN": "", "INVALID_ARGUMENT": "", "DEADLINE_EXCEEDED": "timeout",
	"NOT_FOUND": "", "ALREADY_EXISTS": "", "PERMISSION_DENIED": "", "RESOURCE_EXHAUSTED": "rejected",
	"FAILED_PRECONDITION": "", "ABORTED": "", "OUT_OF_RANGE": "", "UNIMPLEMENTED": "", "INTERNAL": "",
	"UNAVAILABLE": "error", "DATA_LOSS": "", "UNAUTHENTICATED": "",
}

// grpcCodeNames are the code names by number.
var grpcCodeNames = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// retryPolicy maps a gRPC retryPolicy onto ressim's retry table. gRPC
// waits random(0, min(initialBackoff * multiplier^(n-1), maxBackoff))
// before attempt n+1: full jitter; with multiplier 2 it is exactly
// ressim's full_jitter with base = initialBackoff, cap = maxBackoff.
func (g *grpcReader) retryPolicy(n *yaml.Node, s src) (string, bool) {
	var attempts int
	var base, cap time.Duration
	var on []string
	var multWarn func() // a multiplier other than 2 matters only below maxBackoff
	ok := true
	for _, f := range g.grpcFields(n, s.key, grpcRetryPolicyKeys) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		switch f.key {
		case "maxAttempts":
			attempts = g.attempts(f.value, fs)
		case "initialBackoff":
			d, dok := g.duration(f.value, fs)
			base, ok = d, ok && dok
		case "maxBackoff":
			d, dok := g.duration(f.value, fs)
			cap, ok = d, ok && dok
		case "backoffMultiplier":
			m, err := strconv.ParseFloat(f.value.Value, 64)
			if err != nil || m <= 0 {
				g.fail(fs, "must be a number > 0, got %q", f.value.Value)
				ok = false
			} else if m != 2 {
				multWarn = func() {
					g.warn(fs, "multiplier %v imported as 2: ressim's full_jitter doubles its ceiling at each retry", m)
				}
			}
		case "retryableStatusCodes":
			on = g.codes(f.value, fs)
			ok = ok && on != nil
		default:
			g.warn(fs, "not a retryPolicy field; ignored")
		}
	}
	if attempts < 2 || base == 0 || cap == 0 || on == nil {
		g.fail(s, "a retryPolicy needs maxAttempts > 1, initialBackoff, maxBackoff and retryableStatusCodes (gRFC A6)")
		return "", false
	}
	if cap < base {
		g.warn(s, "maxBackoff %v below initialBackoff %v: imported as cap = base", cap, base)
		cap = base
	}
	if multWarn != nil && cap > base {
		multWarn()
	}
	return fmt.Sprintf("{ attempts = %d, backoff = \"full_jitter\", base = %q, cap = %q, on = [%s] }",
		attempts, base, cap, strings.Join(on, ", ")), ok
}

// attempts reads maxAttempts; gRPC clamps it to 5.
func (g *grpcReader) attempts(n *yaml.Node, s src) int {
	a, err := strconv.Atoi(n.Value)
	switch {
	case err != nil || a < 2:
		g.fail(s, "must be an integer > 1, got %q", n.Value)
		return 0
	case a > 5:
		g.warn(s, "gRPC clamps maxAttempts to 5: %d imported as 5", a)
		return 5
	}
	return a
}

// codes maps retryableStatusCodes to ressim outcomes, quoted, without
// repeats, in the order error, timeout, rejected; nil on an error.
func (g *grpcReader) codes(n *yaml.Node, s src) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		g.fail(s, "must be a non-empty array of status codes")
		return nil
	}
	on, _ := g.statusCodes(n, s, "retried")
	return on
}

// statusCodes maps an array of gRPC status codes (names or numbers) to
// ressim outcomes, as codes does; an empty array is an empty list. what
// says what a code listed is (retried, non-fatal) for the message on OK.
// ok is false on an error, which is reported.
func (g *grpcReader) statusCodes(n *yaml.Node, s src, what string) (on []string, ok bool) {
	if n.Kind != yaml.SequenceNode {
		g.fail(s, "must be an array of status codes")
		return nil, false
	}
	set := map[string]bool{}
	for i, c := range n.Content {
		cs := at(g.file, c, fmt.Sprintf("%s[%d]", s.key, i))
		name := strings.ToUpper(c.Value)
		if k, err := strconv.Atoi(c.Value); err == nil && k >= 0 && k < len(grpcCodeNames) {
			name = grpcCodeNames[k]
		}
		out, known := grpcCodes[name]
		switch {
		case !known || c.Kind != yaml.ScalarNode:
			g.fail(cs, "unknown gRPC status code %q", c.Value)
			return nil, false
		case out == "-":
			g.fail(cs, "OK is not a failure and cannot be %s", what)
			return nil, false
		case out == "":
			g.warn(cs, "%s imported as \"error\": ressim has one error outcome", name)
			out = "error"
		}
		set[out] = true
	}
	on = []string{}
	for _, o := range []string{"error", "timeout", "rejected"} {
		if set[o] {
			on = append(on, strconv.Quote(o))
		}
	}
	return on, true
}

// throttling maps retryThrottling onto ressim's token-bucket budget.
// gRPC: each failure takes 1 token, each success gives tokenRatio, up to
// maxTokens; retries are allowed while tokens > maxTokens/2. ressim's
// bucket: each success deposits ratio, each retry takes 1, up to capacity.
// Mapped as ratio = tokenRatio, capacity = maxTokens/2 (the spendable
// half), no reserve: close, not exact (gRPC charges failures, not
// retries), hence the warning.
func (g *grpcReader) throttling(n *yaml.Node, s src) {
	var maxTokens, ratio float64
	for _, f := range g.grpcFields(n, s.key, grpcThrottlingKeys) {
		fs := at(g.file, f.kpos, s.key+"."+f.key)
		v, err := strconv.ParseFloat(f.value.Value, 64)
		switch {
		case f.key != "maxTokens" && f.key != "tokenRatio":
			g.warn(fs, "not a retryThrottling field; ignored")
		case err != nil || v <= 0 || v > 1000:
			g.fail(fs, "must be a number in (0, 1000], got %q", f.value.Value)
		case f.key == "maxTokens":
			maxTokens = v
		default:
			ratio = v
		}
	}
	if maxTokens == 0 || ratio == 0 {
		g.fail(s, "retryThrottling needs maxTokens and tokenRatio")
		return
	}
	g.warn(s, "approximate: gRPC takes a token per failure and retries above half the bucket; ressim takes one per retry or hedge (ratio = tokenRatio, capacity = maxTokens/2)")
	g.throttle = &setting{"retry_budget", fmt.Sprintf("{ ratio = %g, capacity = %g, min_retries_per_second = 0 }", ratio, max(1, maxTokens/2)), s}
}
