package wall_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/wall"
)

// A server puts shedding by priority and an adaptive concurrency limit
// (AIMD, starting at 4 requests in service) in front of its handler. The
// utilisation is the requests in service over the limit: Background
// requests are shed from 50 %, Normal from 80 %, Critical only when full,
// each with 503 and Retry-After.
func ExampleServer_Handler() {
	aimd := limit.DefaultAIMDConfig()
	aimd.InitialLimit = 4
	sc := shed.DefaultConfig()
	srv, err := wall.NewServer(wall.ServerConfig{
		Clock: wall.NewManualClock(0), // leave nil in a service
		Limit: &wall.LimitConfig{AIMD: &aimd},
		Shed:  &sc,
	})
	if err != nil {
		panic(err)
	}
	h := srv.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hello")
	}))
	get := func(p policies.Priority) string {
		req := httptest.NewRequest("GET", "/", nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req.WithContext(wall.WithPriority(req.Context(), p)))
		if ra := rec.Header().Get("Retry-After"); ra != "" {
			return fmt.Sprintf("%d (Retry-After %s)", rec.Code, ra)
		}
		return fmt.Sprint(rec.Code)
	}
	var held []func(policies.Outcome)
	for busy := 1; busy <= 4; busy++ {
		done, err := srv.Acquire(context.Background(), policies.Critical) // a request in service
		if err != nil {
			panic(err)
		}
		held = append(held, done)
		fmt.Printf("%d of 4 busy: background %s, normal %s, critical %s\n",
			busy, get(policies.Background), get(policies.Normal), get(policies.Critical))
	}
	for _, done := range held {
		done(policies.Success)
	}
	// Output:
	// 1 of 4 busy: background 200, normal 200, critical 200
	// 2 of 4 busy: background 503 (Retry-After 1), normal 200, critical 200
	// 3 of 4 busy: background 503 (Retry-After 1), normal 200, critical 200
	// 4 of 4 busy: background 503 (Retry-After 1), normal 503 (Retry-After 1), critical 503 (Retry-After 1)
}

// A readiness probe over the instance's own checks, run every 10 s from the
// clock, answers 503 only after three failed probes in a row (Kubernetes'
// defaults), and names the failing check.
func ExampleHealth() {
	clock := wall.NewManualClock(0) // leave nil in a service
	var cacheErr error
	h, err := wall.NewHealth(wall.HealthConfig{
		Clock:     clock,
		Readiness: new(health.DefaultConfig()),
		ReadinessChecks: []wall.Check{
			{Name: "warm-cache", Fn: func(context.Context) error { return cacheErr }},
		},
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	ready := func() string {
		rec := httptest.NewRecorder()
		h.ReadyHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
		return fmt.Sprintf("%d %s", rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	fmt.Println("0s:", ready())
	cacheErr = errors.New("evicted")
	for t := 10; t <= 30; t += 10 {
		clock.Set(time.Duration(t) * time.Second)
		fmt.Printf("%ds: %s\n", t, ready())
	}
	// Output:
	// 0s: 200 ready
	// 10s: 200 ready
	// 20s: 200 ready
	// 30s: 503 unready: check warm-cache failing
}
