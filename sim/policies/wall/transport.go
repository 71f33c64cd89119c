package wall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies/retry"
)

// MaxErrorBody is the most bytes of an error response's body (5xx, 429) that
// the Transport keeps: it reads and closes the body of every failed attempt
// so that the attempt's connection and context can be released, and returns
// the last failed response with this buffered copy.
const MaxErrorBody = 64 << 10

// Transport is an http.RoundTripper that sends every request through a
// Caller's call path (load shedding, bulkhead, breaker, retry, per-attempt
// timeout) around a base RoundTripper. It classifies each attempt:
//
//	a response with status 429 or 503    Rejected; its Retry-After header
//	                                      (seconds or HTTP date) is honoured
//	                                      by the retry (retry.DecideAfter)
//	any other 5xx response               Error
//	a transport error                    Error (Timeout if it is a timeout)
//	the attempt's context done           Timeout (Cancelled if the request's
//	                                      context was cancelled)
//	anything else                        Success
//
// A request is retried only if it can be sent again: its method is
// idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE; RFC 9110 section
// 9.2.2) or it carries an Idempotency-Key header, and its body is empty or
// has GetBody (http.NewRequest sets it for in-memory bodies). Otherwise it
// gets one attempt, and the error reports ErrNotReplayable.
//
// When the last attempt ended with a 5xx or 429 response, RoundTrip returns
// that response (with its body buffered, up to MaxErrorBody bytes) and a nil
// error, as a plain transport would; local refusals (circuit open, bulkhead
// full, shed, deadline) and transport errors are returned as an *Error.
//
// A call ends, for the bulkhead and the breaker's latency, when the response
// headers arrive; the per-attempt timeout of a successful attempt keeps
// running until the response body is closed, like http.Client's Timeout.
// The Caller's fallback is not used: a degraded answer is the handler's
// business.
type Transport struct {
	caller *Caller
	base   http.RoundTripper
	hosts  *Balancer
}

// TransportOption configures a Transport.
type TransportOption func(*Transport)

// WithBalancer sends every attempt to a host that b picks (round robin,
// skipping the hosts its outlier detector has ejected): the request URL's
// Host is replaced by the host's address (and the Host header follows,
// unless the request set Host explicitly). Each attempt's outcome is fed to
// b's detector. A retry goes to the next host. When every host is ejected
// the attempt fails with ErrNoHost, classified Rejected.
func WithBalancer(b *Balancer) TransportOption {
	return func(t *Transport) { t.hosts = b }
}

// NewTransport returns a Transport that sends requests through c over base
// (nil means http.DefaultTransport).
func NewTransport(c *Caller, base http.RoundTripper, opts ...TransportOption) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{caller: c, base: base}
	for _, o := range opts {
		o(t)
	}
	return t
}

// statusError is the error of an attempt that received a 5xx response other
// than 503.
type statusError struct{ code int }

func (e *statusError) Error() string { return "status " + strconv.Itoa(e.code) }

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var noRetry error
	if !replayable(req) {
		noRetry = ErrNotReplayable
	}
	var (
		resp, last *http.Response
		lastErr    error
		sent       bool
	)
	attempt := func(ctx context.Context, n int, cancel context.CancelFunc) (error, bool) {
		r := req.Clone(ctx)
		if n > 1 && req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return err, false
			}
			r.Body = body
		}
		host, err := t.route(r, req)
		if err != nil {
			return err, false
		}
		sent = true
		res, err := t.base.RoundTrip(r)
		if host >= 0 {
			defer func() { t.hosts.Record(host, t.caller.outcome(req.Context(), ctx, hostErr(res, err))) }()
		}
		if err != nil {
			return err, false
		}
		code := res.StatusCode
		if code < 500 && code != http.StatusTooManyRequests {
			res.Body = &cancelOnClose{ReadCloser: res.Body, cancel: cancel}
			resp = res
			return nil, true
		}
		bufferBody(res)
		last = res
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			now := t.caller.clock.Time(t.caller.clock.Now())
			lastErr = &RejectedError{StatusCode: code, RetryAfter: ParseRetryAfter(res.Header.Get("Retry-After"), now)}
		} else {
			lastErr = &statusError{code: code}
		}
		return lastErr, false
	}
	err := t.caller.run(req.Context(), nil, attempt, noRetry)
	if !sent && req.Body != nil {
		req.Body.Close() // RoundTrip must close the body, even unsent
	}
	if err == nil {
		return resp, nil
	}
	var e *Error
	if last != nil && errors.As(err, &e) && e.Err == lastErr {
		return last, nil
	}
	return nil, err
}

// route points r, the attempt's copy of req, at the host the Balancer
// picks, and returns the host's index (-1 without a Balancer).
func (t *Transport) route(r, req *http.Request) (int, error) {
	if t.hosts == nil {
		return -1, nil
	}
	i, addr, err := t.hosts.Pick()
	if err != nil {
		return -1, err
	}
	r.URL.Host = addr
	if req.Host == "" || req.Host == req.URL.Host {
		r.Host = "" // the Host header follows the URL
	}
	return i, nil
}

// hostErr is what an attempt's answer says about the host it went to: nil
// for a success, an error for a transport error or a 5xx (503 and 429 are
// rejections).
func hostErr(res *http.Response, err error) error {
	switch {
	case err != nil:
		return err
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable:
		return &RejectedError{StatusCode: res.StatusCode}
	case res.StatusCode >= 500:
		return &statusError{code: res.StatusCode}
	}
	return nil
}

// replayable reports whether req may be sent more than once.
func replayable(req *http.Request) bool {
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return false
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	_, key := req.Header["Idempotency-Key"]
	_, xkey := req.Header["X-Idempotency-Key"]
	return key || xkey
}

// bufferBody replaces res.Body with an in-memory copy of its first
// MaxErrorBody bytes and closes the original.
func bufferBody(res *http.Response) {
	b, _ := io.ReadAll(io.LimitReader(res.Body, MaxErrorBody))
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
}

// cancelOnClose releases an attempt's context when the response body is
// closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// ParseRetryAfter returns the delay of an HTTP Retry-After header value
// (RFC 9110 section 10.2.3) received at now: a number of seconds, or an HTTP
// date minus now. It returns 0 for an empty, malformed or past value, and at
// most retry.MaxCap.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(retry.MaxCap/time.Second))) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	return min(max(t.Sub(now), 0), retry.MaxCap)
}
