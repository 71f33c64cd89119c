package importer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ressim/ressim/internal/textdist"
	"github.com/ressim/ressim/sim/policies/retry"
)

// The AWS SDKs' retry settings, from the AWS SDKs and Tools Reference
// Guide, "Retry behavior" (docs.aws.amazon.com/sdkref/latest/guide/
// feature-retry-behavior.html): retry_mode (standard, adaptive, legacy)
// and max_attempts (attempts in all, the first included; default 3 in
// standard and adaptive mode, SDK-specific in legacy mode). The standard
// mode's numbers are botocore's (boto/botocore, botocore/retries/
// standard.py at ef31254d96502db058e98fcfb325fbe406356610: delay
// rand(0,1) * min(2^i, 20) s before retry i, i = 0 for the first; a quota
// of 500 tokens, 5 a retry, 10 a retry after a timeout, 1 back per
// success) and the AWS SDK for Go v2's (aws/aws-sdk-go-v2, aws/retry/
// standard.go at 1489ddb225dc3ff0d1dd273779b2115acb58f71b: the same
// quota, DefaultMaxAttempts 3, DefaultMaxBackoff 20 s). Legacy mode is
// botocore's (botocore/data/_retry.json at
// 1521276d74f22677143cb8877f50709c8dbe32e7: 5 attempts, delay
// rand(0,1) * 2^i s, no quota).

const (
	awsStandardAttempts = 3 // the guide: standard and adaptive make three attempts
	awsLegacyAttempts   = 5 // botocore's legacy __default__ max_attempts
	awsRetryOn          = `["error", "timeout", "rejected"]`
	awsBudget           = `{ kind = "aws_standard", capacity = 500, retry_cost = 5, timeout_cost = 10, success_refund = 1 }`
)

var awsModes = []string{"standard", "adaptive", "legacy"}

// awsNotModelled are the profile keys that bear on resilience and have
// no counterpart in the model, with why.
var awsNotModelled = map[string]string{
	"metadata_service_timeout":      "the credential fetch from the instance metadata service",
	"metadata_service_num_attempts": "the credential fetch from the instance metadata service",
	"cli_connect_timeout":           "the AWS CLI's connect timeout (ressim has no connections)",
	"cli_read_timeout":              "the AWS CLI's socket read timeout; ressim's call `timeout` is per attempt: set it by hand if the CLI is the client",
	"defaults_mode":                 "smart configuration defaults set the SDK's connect and TLS-negotiation timeouts (ressim has no connections)",
	"tcp_keepalive":                 "ressim has no connections",
	"sts_regional_endpoints":        "which STS endpoint (global or regional) a client depends on: model it as a callee by hand",
	"max_concurrent_requests":       "the AWS CLI's S3 transfer concurrency",
	"max_queue_size":                "the AWS CLI's S3 transfer queue",
}

// bearsOnResilience reports whether an unlisted key looks like a retry or
// timeout setting, worth a warning of its own.
func bearsOnResilience(key string) bool {
	return strings.Contains(key, "retry") || strings.Contains(key, "retries") || strings.Contains(key, "attempt") || strings.Contains(key, "timeout")
}

// awsReader reads one AWS shared config file: each profile is an SDK
// client's settings, imported as one call from the caller to a callee
// named after the profile.
type awsReader struct {
	file  string
	sk    *skeleton
	warns []Diag
	errs  Errors
	// others are the keys that do not bear on resilience (region,
	// output, credentials...): one warning names them, never their values.
	others     []string
	othersFrom *src
}

func (g *awsReader) warn(s src, format string, a ...any) {
	g.warns = append(g.warns, s.diag(format, a...))
}
func (g *awsReader) fail(s src, format string, a ...any) {
	g.errs = append(g.errs, s.diag(format, a...))
}

// importAWS reads one shared config file.
func importAWS(sk *skeleton, s Source) ([]Diag, Errors) {
	sk.files = append(sk.files, s.Name)
	f := parseAWSConfig(s.Name, s.Data)
	g := &awsReader{file: s.Name, sk: sk, warns: f.warns, errs: f.errs}
	for _, sec := range f.sections {
		switch sec.kind {
		case "profile":
			g.profile(sec)
		case "sso-session", "services":
			g.other(sec.from, sec.label)
		default:
			g.warn(sec.from, "not a section the SDKs read in the config file (a profile is [profile NAME], or [default]); ignored")
		}
	}
	if g.othersFrom != nil {
		g.warn(*g.othersFrom, "%d other properties or sections do not bear on resilience and are ignored: %s",
			len(g.others), strings.Join(g.others, ", "))
	}
	return g.warns, g.errs
}

// other counts a key (never its value) for the summarising warning.
func (g *awsReader) other(s src, name string) {
	if g.othersFrom == nil {
		g.othersFrom = &s
	}
	for _, o := range g.others {
		if o == name {
			return
		}
	}
	if len(g.others) < 12 {
		g.others = append(g.others, name)
	} else if len(g.others) == 12 {
		g.others = append(g.others, "...")
	}
}

// profile maps one profile to a call.
func (g *awsReader) profile(sec *iniSection) {
	if !goodName(sec.name) {
		g.fail(sec.from, "profile %q cannot name the callee: not a valid ressim service name (1-64 letters, digits, '-', '_', '.'; not \".\", \"..\" or the skeleton's \"caller\")", sec.name)
		return
	}
	mode, attempts := g.keys(sec)
	m, mfrom := "standard", src{sec.from.file, sec.from.line, sec.from.col, sec.label + ".retry_mode (default)"}
	if mode != nil {
		mfrom = mode.vfrom
		var ok bool
		if m, ok = g.mode(mode); !ok {
			return
		}
	}
	n, nfrom := awsStandardAttempts, src{sec.from.file, sec.from.line, sec.from.col, sec.label + ".max_attempts (default)"}
	if m == "legacy" {
		n = awsLegacyAttempts
	}
	if attempts != nil {
		nfrom = attempts.vfrom
		var ok bool
		if n, ok = g.attempts(attempts); !ok {
			return
		}
	}

	c := g.call(sec)
	g.modeNotes(c, m, mode == nil, mfrom)
	c.set("retry.attempts", strconv.Itoa(n), nfrom)
	c.set("retry.backoff", `"full_jitter"`, mfrom)
	c.set("retry.base", `"1s"`, mfrom)
	c.set("retry.cap", `"20s"`, mfrom)
	c.set("retry.on", awsRetryOn, mfrom)
	if m != "legacy" {
		c.set("retry_budget", awsBudget, mfrom)
	}
}

// keys reads a profile's keys: it returns retry_mode and max_attempts
// (nil when not set), and warns about or counts every other.
func (g *awsReader) keys(sec *iniSection) (mode, attempts *iniEntry) {
	for i := range sec.entries {
		e := &sec.entries[i]
		switch {
		case e.key == "retry_mode":
			mode = e
		case e.key == "max_attempts":
			attempts = e
		case awsNotModelled[e.key] != "":
			g.warn(e.from, "not modelled: %s", awsNotModelled[e.key])
		case bearsOnResilience(e.key):
			g.warn(e.from, "not modelled: no counterpart in ressim")
		default:
			g.other(e.from, e.key)
		}
		for _, sub := range e.sub {
			switch {
			case awsNotModelled[sub.key] != "":
				g.warn(sub.from, "not modelled: %s", awsNotModelled[sub.key])
			case bearsOnResilience(sub.key):
				g.warn(sub.from, "not modelled: a service's own setting; ressim imports the profile's retry settings")
			default:
				g.other(sub.from, e.key+"."+sub.key)
			}
		}
	}

	return mode, attempts
}

// modeNotes warns about and notes on the call what the import made of
// the retry mode m (unset: the default taken).
func (g *awsReader) modeNotes(c *callOut, m string, unset bool, mfrom src) {
	switch {
	case unset:
		g.warn(mfrom, "retry_mode not set: imported as standard, the default of most SDKs (boto3 and the AWS CLI v1, and the Java SDK 2.x, default to legacy: set retry_mode to say which)")
		c.notes = append(c.notes, "retry_mode not set: imported as standard (the default of most SDKs; boto3, the AWS CLI v1 and the Java SDK 2.x default to legacy)")
	case m == "adaptive":
		g.warn(mfrom, "approximate: adaptive mode is standard mode plus a client-side rate limiter (a token bucket on the send rate that throttling responses shrink), which is not modelled; imported as standard")
		c.notes = append(c.notes, "adaptive: imported as standard mode; the client-side rate limiter is not modelled")
	case m == "legacy":
		g.warn(mfrom, "approximate: legacy mode differs by SDK (its retry quota, its error-type-specific backoff and its default max_attempts vary, and it is not standardized across SDKs); imported as botocore's legacy mode: %d attempts unless max_attempts is set, full jitter from 1s doubling, no retry quota (the Java SDK 2.x's legacy mode makes 4 attempts, 9 for DynamoDB, and has a token bucket)", awsLegacyAttempts)
		c.notes = append(c.notes, fmt.Sprintf("legacy: imported as botocore's legacy mode (%d attempts by default, full jitter, no retry quota); legacy differs by SDK", awsLegacyAttempts))
	}
	if m != "legacy" {
		c.notes = append(c.notes, "AWS standard retry mode: full jitter from 1s doubling up to 20s, and the SDK's retry quota (500 tokens, 5 a retry, 10 a retry after a timeout, 1 back per success)")
	}
}

// call returns the profile's call, created on first use; a profile in
// two files is one call.
func (g *awsReader) call(sec *iniSection) *callOut {
	if i, ok := g.sk.byName[sec.name]; ok {
		return &g.sk.calls[i]
	}
	g.sk.byName[sec.name] = len(g.sk.calls)
	g.sk.calls = append(g.sk.calls, callOut{service: sec.name, from: sec.from, sk: g.sk})
	return &g.sk.calls[len(g.sk.calls)-1]
}

// mode reads retry_mode: standard, adaptive or legacy, in any letter case.
func (g *awsReader) mode(e *iniEntry) (string, bool) {
	v := strings.ToLower(e.value)
	for _, m := range awsModes {
		if v == m {
			return m, true
		}
	}
	hint := ""
	if c := nearest(v, awsModes); c != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", c)
	}
	g.fail(e.vfrom, "unknown retry_mode %q%s: want standard, adaptive or legacy", e.value, hint)
	return "", false
}

// attempts reads max_attempts: a positive integer, at most ressim's
// retry limit.
func (g *awsReader) attempts(e *iniEntry) (int, bool) {
	n, err := strconv.Atoi(e.value)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(e.value, "-"):
		g.fail(e.vfrom, "max_attempts %q is more attempts than ressim models (at most %d): lower it, or model the client by hand", e.value, retry.MaxMaxAttempts)
		return 0, false
	case err != nil || n < 1:
		g.fail(e.vfrom, "max_attempts must be a positive integer (attempts in all, the first included; 1 = no retries), got %q", e.value)
		return 0, false
	case n > retry.MaxMaxAttempts:
		g.fail(e.vfrom, "max_attempts %d is more attempts than ressim models (at most %d): lower it, or model the client by hand", n, retry.MaxMaxAttempts)
		return 0, false
	}
	return n, true
}

// nearest returns the candidate within 3 edits of s, the closest, or "".
func nearest(s string, candidates []string) string {
	return textdist.Nearest(s, candidates, 3)
}
