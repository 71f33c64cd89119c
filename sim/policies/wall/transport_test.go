package wall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
)

// loopback starts an HTTP server on 127.0.0.1 (never another interface).
func loopback(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// fastRetry retries up to n attempts with a real 1 ms constant backoff.
func fastRetry(n int) *retry.Config {
	rc := retry.DefaultConfig()
	rc.MaxAttempts = n
	rc.Backoff, rc.Base = retry.BackoffConstant, time.Millisecond
	return &rc
}

func realCaller(t *testing.T, cfg Config) *Caller {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTransportRetriesFlakyServer(t *testing.T) {
	var hits atomic.Int32
	srv := loopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= 2 {
			http.Error(w, "flaky", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}))
	client := &http.Client{Transport: NewTransport(realCaller(t, Config{Retry: fastRetry(3)}), nil)}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok" || hits.Load() != 3 {
		t.Fatalf("got %d %q after %d requests, want 200 \"ok\" after 3", resp.StatusCode, body, hits.Load())
	}
}

func TestTransportReturnsLastFailedResponse(t *testing.T) {
	var hits atomic.Int32
	srv := loopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "down", http.StatusBadGateway)
	}))
	client := &http.Client{Transport: NewTransport(realCaller(t, Config{Retry: fastRetry(3)}), nil)}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || strings.TrimSpace(string(body)) != "down" || hits.Load() != 3 {
		t.Fatalf("got %d %q after %d requests, want 502 \"down\" after 3", resp.StatusCode, body, hits.Load())
	}
}

func TestTransportBreakerFailsFast(t *testing.T) {
	var hits atomic.Int32
	srv := loopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	client := &http.Client{Transport: NewTransport(realCaller(t, Config{Breaker: testBreaker()}), nil)}
	for i := range 6 {
		resp, err := client.Get(srv.URL)
		if i < 4 {
			if err != nil || resp.StatusCode != 500 {
				t.Fatalf("call %d: %v, %v; want a 500 response", i+1, resp, err)
			}
			resp.Body.Close()
			continue
		}
		if !errors.Is(err, ErrCircuitOpen) || OutcomeOf(err) != policies.CircuitOpen {
			t.Fatalf("call %d: err %v, want the breaker's refusal", i+1, err)
		}
	}
	if hits.Load() != 4 {
		t.Fatalf("server saw %d requests, want 4: an open breaker sends nothing", hits.Load())
	}
}

func TestTransportAttemptTimeout(t *testing.T) {
	unblock := make(chan struct{})
	t.Cleanup(func() { close(unblock) }) // runs before srv.Close
	srv := loopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-unblock:
		}
	}))
	c := realCaller(t, Config{Retry: fastRetry(2), Timeout: timeoutConfig(20 * time.Millisecond)})
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	_, err := NewTransport(c, nil).RoundTrip(req)
	var e *Error
	if !errors.As(err, &e) || e.Outcome != policies.Timeout || e.Attempts != 2 {
		t.Fatalf("RoundTrip error %v, want Timeout after 2 attempts", err)
	}
}

func TestTransportConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := realCaller(t, Config{Retry: fastRetry(2)})
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr, nil)
	_, err = NewTransport(c, nil).RoundTrip(req)
	var e *Error
	if !errors.As(err, &e) || e.Outcome != policies.Error || e.Attempts != 2 {
		t.Fatalf("RoundTrip error %v, want Error after 2 attempts", err)
	}
}

// rtFunc is a fake base RoundTripper.
type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func respond(code int, header http.Header, body string) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	return &http.Response{StatusCode: code, Header: header, Body: io.NopCloser(strings.NewReader(body))}
}

func TestTransportRetryAfter(t *testing.T) {
	clock := NewManualClock(0)
	c := newTestCallerOn(t, clock, Config{Retry: fastRetry(3)})
	n := 0
	base := rtFunc(func(r *http.Request) (*http.Response, error) {
		n++
		if n == 1 {
			return respond(http.StatusTooManyRequests, http.Header{"Retry-After": {"2"}}, "slow down"), nil
		}
		return respond(200, nil, "ok"), nil
	})
	req, _ := http.NewRequest(http.MethodGet, "http://dep.invalid/", nil)
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := NewTransport(c, base).RoundTrip(req)
		done <- result{resp, err}
	}()
	clock.WaitTimers(1)
	if at, _ := clock.NextTimer(); at != 2*time.Second {
		t.Fatalf("retry at %v, want after the Retry-After of 2s", at)
	}
	clock.Advance(2 * time.Second)
	r := <-done
	if r.err != nil || r.resp.StatusCode != 200 || n != 2 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts; want 200 after 2", r.resp, r.err, n)
	}
}

func TestTransportClassification(t *testing.T) {
	tests := []struct {
		code     int
		retryAft string
		want     policies.Outcome
		hint     time.Duration
	}{
		{500, "", policies.Error, 0},
		{502, "", policies.Error, 0},
		{503, "", policies.Rejected, 0},
		{503, "7", policies.Rejected, 7 * time.Second},
		{429, "", policies.Rejected, 0},
		{404, "", policies.Success, 0},
		{200, "", policies.Success, 0},
	}
	for _, tt := range tests {
		clock := NewManualClock(0)
		var got []policies.Outcome
		var hint time.Duration
		c := newTestCallerOn(t, clock, Config{Classify: func(err error) policies.Outcome {
			var rej *RejectedError
			if errors.As(err, &rej) {
				hint = rej.RetryAfter
			}
			o := Classify(err)
			got = append(got, o)
			return o
		}})
		base := rtFunc(func(r *http.Request) (*http.Response, error) {
			return respond(tt.code, http.Header{"Retry-After": {tt.retryAft}}, "x"), nil
		})
		req, _ := http.NewRequest(http.MethodGet, "http://dep.invalid/", nil)
		resp, err := NewTransport(c, base).RoundTrip(req)
		if err != nil || resp.StatusCode != tt.code {
			t.Errorf("%d: RoundTrip = %v, %v; want the response", tt.code, resp, err)
			continue
		}
		resp.Body.Close()
		o := policies.Success
		if len(got) > 0 {
			o = got[0]
		}
		if o != tt.want || hint != tt.hint {
			t.Errorf("%d Retry-After %q: outcome %v hint %v, want %v %v", tt.code, tt.retryAft, o, hint, tt.want, tt.hint)
		}
	}
}

// closeRecorder is a request body without GetBody that records Close.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (b *closeRecorder) Close() error { b.closed = true; return nil }

func TestTransportReplay(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	base := rtFunc(func(r *http.Request) (*http.Response, error) {
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		return respond(500, nil, "down"), nil
	})
	c := newTestCallerOn(t, NewManualClock(0), Config{Retry: noBackoff(3)})
	tr := NewTransport(c, base)

	tests := []struct {
		name   string
		req    func() *http.Request
		bodies []string
	}{
		{"PUT with GetBody is replayed", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPut, "http://dep.invalid/", bytes.NewReader([]byte("v1")))
			return r
		}, []string{"v1", "v1", "v1"}},
		{"POST is not retried", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, "http://dep.invalid/", bytes.NewReader([]byte("pay")))
			return r
		}, []string{"pay"}},
		{"POST with Idempotency-Key is retried", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, "http://dep.invalid/", bytes.NewReader([]byte("pay")))
			r.Header.Set("Idempotency-Key", "k1")
			return r
		}, []string{"pay", "pay", "pay"}},
		{"body without GetBody is not retried", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPut, "http://dep.invalid/", &closeRecorder{Reader: strings.NewReader("once")})
			return r
		}, []string{"once"}},
	}
	for _, tt := range tests {
		bodies = nil
		resp, err := tr.RoundTrip(tt.req())
		if err != nil || resp.StatusCode != 500 {
			t.Errorf("%s: RoundTrip = %v, %v; want the last 500", tt.name, resp, err)
		}
		if strings.Join(bodies, ",") != strings.Join(tt.bodies, ",") {
			t.Errorf("%s: bodies sent %q, want %q", tt.name, bodies, tt.bodies)
		}
	}
}

func TestTransportClosesUnsentBody(t *testing.T) {
	bc := testBreaker()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 1, 1
	c := newTestCallerOn(t, NewManualClock(0), Config{Breaker: bc})
	tr := NewTransport(c, rtFunc(func(r *http.Request) (*http.Response, error) {
		r.Body.Close()
		return nil, errors.New("connection reset")
	}))
	r1, _ := http.NewRequest(http.MethodPut, "http://dep.invalid/", strings.NewReader("a"))
	if _, err := tr.RoundTrip(r1); OutcomeOf(err) != policies.Error {
		t.Fatalf("first call: %v, want Error", err)
	}
	body := &closeRecorder{Reader: strings.NewReader("b")}
	r2, _ := http.NewRequest(http.MethodPut, "http://dep.invalid/", body)
	if _, err := tr.RoundTrip(r2); !errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("second call: %v, want the open breaker", err)
	}
	if !body.closed {
		t.Fatal("the body of a request refused before sending was not closed")
	}
}

func TestTransportTimeoutOutlivesRoundTrip(t *testing.T) {
	// The per-attempt timeout of a successful attempt keeps running until
	// the body is closed, so that the body can still be read.
	clock := NewManualClock(0)
	c := newTestCallerOn(t, clock, Config{Timeout: timeoutConfig(time.Second)})
	var attemptCtx context.Context
	tr := NewTransport(c, rtFunc(func(r *http.Request) (*http.Response, error) {
		attemptCtx = r.Context()
		return respond(200, nil, "payload"), nil
	}))
	req, _ := http.NewRequest(http.MethodGet, "http://dep.invalid/", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if attemptCtx.Err() != nil {
		t.Fatal("the attempt's context was cancelled before the body was read")
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "payload" || attemptCtx.Err() == nil {
		t.Fatalf("body %q, ctx %v; want the payload, then a cancelled context", b, attemptCtx.Err())
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-3", 0},
		{" 120 ", 2 * time.Minute},
		{"999999999999", retry.MaxCap},
		{"Fri, 02 Jan 2026 03:04:35 GMT", 30 * time.Second},
		{"Fri, 02 Jan 2026 03:00:00 GMT", 0}, // in the past
		{"soon", 0},
	}
	for _, tt := range tests {
		if got := ParseRetryAfter(tt.v, now); got != tt.want {
			t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestTransportRetryAfterBeyondDeadline(t *testing.T) {
	// The callee asks for 5 s; the request has 1 s left: the retry could not
	// finish in time, so it is not made and the 503 is the answer.
	clock := NewManualClock(0)
	c := newTestCallerOn(t, clock, Config{Retry: fastRetry(3)})
	n := 0
	base := rtFunc(func(r *http.Request) (*http.Response, error) {
		n++
		return respond(http.StatusServiceUnavailable, http.Header{"Retry-After": {"5"}}, "busy"), nil
	})
	ctx, cancel := clock.WithDeadline(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://dep.invalid/", nil)
	resp, err := NewTransport(c, base).RoundTrip(req)
	if err != nil || resp.StatusCode != 503 || n != 1 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts; want the 503 after 1", resp, err, n)
	}
	if clock.Timers() != 1 { // only the request's own deadline
		t.Fatalf("%d timers armed, want 1: no backoff", clock.Timers())
	}
}
