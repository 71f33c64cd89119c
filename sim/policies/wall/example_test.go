package wall_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/policies/wall"
)

// serve starts an HTTP server on the loopback interface only.
func serve(h http.HandlerFunc) *httptest.Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	srv.Start()
	return srv
}

// A flaky server fails its first two requests with 503 and then succeeds;
// the client's transport retries (full jitter, here with a 1 ms base so that
// the example runs fast) and the caller sees one successful response.
func ExampleTransport_retries() {
	var requests atomic.Int32
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if n <= 2 {
			fmt.Printf("server: request %d -> 503\n", n)
			http.Error(w, "warming up", http.StatusServiceUnavailable)
			return
		}
		fmt.Printf("server: request %d -> 200\n", n)
		io.WriteString(w, "hello")
	})
	defer srv.Close()

	rc := retry.DefaultConfig() // 3 attempts, full jitter
	rc.Base, rc.Cap = time.Millisecond, 10*time.Millisecond
	caller, err := wall.New(wall.Config{Retry: &rc})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: wall.NewTransport(caller, nil)}

	resp, err := client.Get(srv.URL)
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Printf("client: %s %q\n", resp.Status, body)
	// Output:
	// server: request 1 -> 503
	// server: request 2 -> 503
	// server: request 3 -> 200
	// client: 200 OK "hello"
}

// A server that is down answers every request with 500. The breaker (here:
// open at 50 % failures over the last 4 calls) sits outside the retry loop,
// as in the simulator: each call of three failed attempts counts as one
// failure, so it opens after the fourth call, and later calls fail fast
// without reaching the server.
func ExampleTransport_breaker() {
	var requests atomic.Int32
	srv := serve(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, "down", http.StatusInternalServerError)
	})
	defer srv.Close()

	bc := breaker.DefaultConfig()
	bc.SlidingWindowSize, bc.MinimumNumberOfCalls = 4, 4
	rc := retry.DefaultConfig()
	rc.Backoff, rc.Base = retry.BackoffConstant, time.Millisecond
	caller, err := wall.New(wall.Config{
		Breaker: &bc,
		Retry:   &rc,
		OnBreakerTransition: func(tr breaker.Transition) {
			fmt.Printf("breaker: %v -> %v (%v)\n", tr.From, tr.To, tr.Reason)
		},
	})
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: wall.NewTransport(caller, nil)}

	for call := 1; call <= 6; call++ {
		resp, err := client.Get(srv.URL)
		switch {
		case errors.Is(err, wall.ErrCircuitOpen):
			fmt.Printf("call %d: failed fast: %v; server saw %d requests\n", call, wall.OutcomeOf(err), requests.Load())
		case err != nil:
			fmt.Printf("call %d: %v\n", call, err)
		default:
			resp.Body.Close()
			fmt.Printf("call %d: %s; server saw %d requests\n", call, resp.Status, requests.Load())
		}
	}
	// Output:
	// call 1: 500 Internal Server Error; server saw 3 requests
	// call 2: 500 Internal Server Error; server saw 6 requests
	// call 3: 500 Internal Server Error; server saw 9 requests
	// breaker: closed -> open (failure_rate)
	// call 4: 500 Internal Server Error; server saw 12 requests
	// call 5: failed fast: circuit_open; server saw 12 requests
	// call 6: failed fast: circuit_open; server saw 12 requests
}

// Do runs any call through the same path. Here a manual clock, a seeded
// generator and retries without backoff make the run exact and sequential: a
// call that fails twice succeeds on its third attempt, and a callee that keeps
// refusing (429) is given up on after three.
func ExampleCaller_Do() {
	clock := wall.NewManualClock(0)
	rc := retry.DefaultConfig()
	rc.Backoff = retry.BackoffNone // no waits, so the example needs no goroutine
	caller, err := wall.New(wall.Config{Clock: clock, Retry: &rc, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		panic(err)
	}
	attempts := 0
	err = caller.Do(context.Background(), func(ctx context.Context) error {
		attempts++
		if attempts < 3 {
			return errors.New("connection reset")
		}
		return nil
	})
	fmt.Println("flaky:", wall.OutcomeOf(err), "after", attempts, "attempts")

	err = caller.Do(context.Background(), func(ctx context.Context) error {
		return &wall.RejectedError{StatusCode: 429}
	})
	var e *wall.Error
	if errors.As(err, &e) {
		fmt.Println("overloaded:", e.Outcome, "after", e.Attempts, "attempts, stopped:", e.Reason)
	}
	// Output:
	// flaky: success after 3 attempts
	// overloaded: rejected after 3 attempts, stopped: exhausted
}
