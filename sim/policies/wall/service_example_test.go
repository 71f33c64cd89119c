package wall_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/timeout"
	"github.com/ressim/ressim/sim/policies/wall"
)

// breakerFallbackConfig is the call path of the page -> recommendations
// step of experiments/breaker-fallback.toml, key by key:
//
//	timeout = "300ms"
//	breaker = { window_size = 100, minimum_calls = 20, failure_rate = 50,
//	            half_open_calls = 3, open_pause = "15s", max_open_pause = "300s" }
//	fallback = { level = "generic" }
//
// with the breaker's placement left at the default, outside_retry, in both.
// withBreaker false drops the breaker, for the comparison.
func breakerFallbackConfig(clock wall.Clock, withBreaker bool) wall.Config {
	bc := breaker.DefaultConfig()
	bc.SlidingWindowSize = 100
	bc.MinimumNumberOfCalls = 20
	bc.FailureRateThreshold = 50
	bc.PermittedNumberOfCallsInHalfOpenState = 3
	bc.WaitDurationInOpenState = 15 * time.Second
	bc.MaxWaitDurationInOpenState = 300 * time.Second
	cfg := wall.Config{
		Clock:    clock,
		Timeout:  &timeout.Config{Attempt: 300 * time.Millisecond},
		Fallback: &wall.Fallback{Feature: fallback.DefaultConfig()}, // nothing cached: Stale is skipped, Generic answers
	}
	if withBreaker {
		cfg.Breaker = &bc
	}
	return cfg
}

// recommendations is a loopback stand-in for the experiment's
// recommendations service: it answers at once while healthy; while hung it
// holds every request until the caller gives up (the experiment's fault
// makes it 250 times slower, 5 s, far beyond the 300 ms timeout).
type recommendations struct {
	srv     *httptest.Server
	hung    atomic.Bool
	calls   atomic.Int32
	arrived chan struct{} // one token per request received while hung
}

func newRecommendations() *recommendations {
	r := &recommendations{arrived: make(chan struct{}, 1000)}
	r.srv = serve(func(w http.ResponseWriter, req *http.Request) {
		r.calls.Add(1)
		if r.hung.Load() {
			r.arrived <- struct{}{}
			<-req.Context().Done()
			return
		}
		io.WriteString(w, "personal picks")
	})
	return r
}

// page is the experiment's page service: a handler behind a Server with
// its 200 workers as the concurrency cap, asking recommendations through
// the Caller and answering with the level it got (fresh or generic).
type page struct {
	srv    *httptest.Server
	caller *wall.Caller
}

func newPage(recs *recommendations, cfg wall.Config) *page {
	caller, err := wall.New(cfg)
	if err != nil {
		panic(err)
	}
	admission, err := wall.NewServer(wall.ServerConfig{Clock: cfg.Clock, MaxConcurrent: 200})
	if err != nil {
		panic(err)
	}
	fetch := func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, "GET", recs.srv.URL, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("recommendations: %s", resp.Status)
		}
		return string(b), err
	}
	generic := func(context.Context, fallback.Level, error) (string, error) { return "generic picks", nil }
	p := &page{caller: caller}
	p.srv = serve(admission.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, level, err := wall.DoFallback(r.Context(), caller, fetch, generic)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		io.WriteString(w, level.String())
	})).ServeHTTP)
	return p
}

// user asks for the page and returns the level it was rendered at.
func (p *page) user() string {
	resp, err := http.Get(p.srv.URL)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

// users starts n users at once; their answers arrive on the channel.
func (p *page) users(n int) <-chan string {
	out := make(chan string, n)
	for range n {
		go func() { out <- p.user() }()
	}
	return out
}

func (p *page) close() { p.srv.Close() }

// The service of experiments/breaker-fallback.toml, run for real on the
// loopback interface with the experiment's settings: users ask page, page
// asks recommendations under a 300 ms timeout, a breaker outside the retry
// loop (window of 100 calls, decisions from 20, opens at 50 % failures) and
// a generic fallback. A ManualClock stands in for time so that the example
// runs in milliseconds and its output is exact; in a service, leave Clock
// nil.
//
// recommendations hangs; 20 users arrive at once, their calls time out at
// 300 ms and they get the generic block; the 20 timeouts open the breaker,
// and from then on the page answers at once, without calling
// recommendations. After the open pause (15 s), recommendations has
// recovered, and three probe calls close the breaker: what the experiment's
// breaker panel shows (closed, open, half-open, closed).
func Example_breakerFallbackService() {
	clock := wall.NewManualClock(0)
	recs := newRecommendations()
	defer recs.srv.Close()
	p := newPage(recs, breakerFallbackConfig(clock, true))
	defer p.close()

	fmt.Println("healthy:", p.user())

	recs.hung.Store(true)
	answers := p.users(20)
	for range 20 {
		<-recs.arrived // every call is waiting in recommendations
	}
	clock.Advance(300 * time.Millisecond) // their timeouts fire
	levels := map[string]int{}
	for range 20 {
		levels[<-answers]++
	}
	st, _ := p.caller.BreakerState()
	fmt.Println("hang: answers", levels, "breaker", st)

	fmt.Println("open:", p.user(), "- recommendations saw", recs.calls.Load(), "calls")

	recs.hung.Store(false)
	clock.Advance(15 * time.Second)
	fmt.Println("after the pause:", p.user(), p.user(), p.user())
	st, _ = p.caller.BreakerState()
	fmt.Println("breaker", st)
	// Output:
	// healthy: fresh
	// hang: answers map[generic:20] breaker open
	// open: generic - recommendations saw 21 calls
	// after the pause: fresh fresh fresh
	// breaker closed
}
