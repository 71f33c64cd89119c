package topology

import (
	"strings"
	"testing"
	"time"
)

// oneUser is one closed-loop user who sends a single request to "api" at
// t = 500 ms (after thinking; it thinks again for longer than the rest of
// the run) and times it out after timeout, without retries; api has one
// worker and the given handler. The comments below count from the send.
func oneUser(timeout time.Duration, mode Cancellation, steps ...Step) Config {
	return Config{
		Name: "cancel", Duration: time.Second, Seed: 1,
		Trace: TraceConfig{Every: 1, Max: 100},
		Clients: []ClientConfig{{Name: "users", Target: "api", Users: 1, ThinkTime: constant(500 * ms),
			Call: CallPolicy{Timeout: timeout}}},
		Services: []ServiceConfig{{Name: "api", Workers: 1, QueueCapacity: -1, Cancellation: mode, Steps: steps}},
	}
}

// observed runs cfg and returns its result and its lifecycle lines, one
// "at from -> to (why)" or "at why" per step.
func observed(t *testing.T, cfg Config) (*Result, []string) {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	m.setObserver(func(tr transition) {
		s := tr.at.String() + " " + tr.record + ": "
		if tr.to != "" {
			s += tr.from + " -> " + tr.to + " "
		}
		lines = append(lines, s+tr.why)
	})
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res, lines
}

// has reports whether a line contains every part.
func has(lines []string, parts ...string) bool {
outer:
	for _, l := range lines {
		for _, p := range parts {
			if !strings.Contains(l, p) {
				continue outer
			}
		}
		return true
	}
	return false
}

// A 100 ms work step whose caller gives up at 30 ms: never runs it to its
// end and wastes all of it; continuous stops it at 30 ms, wasting none,
// and frees the worker then.
func TestCancelOneWorkStep(t *testing.T) {
	for _, tc := range []struct {
		mode                 Cancellation
		wasted, busy         time.Duration
		completed, cancelled uint64
	}{
		{CancelNever, 100 * ms, 100 * ms, 1, 0},
		{CancelAtStep, 100 * ms, 100 * ms, 1, 0}, // no step boundary before the end
		{CancelContinuous, 0, 30 * ms, 0, 1},
	} {
		res, lines := observed(t, oneUser(30*ms, tc.mode, work(constant(100*ms))...))
		s := svcResult(t, res, "api")
		if s.WastedWork != tc.wasted || s.Completed != tc.completed || s.Cancelled != tc.cancelled {
			t.Errorf("%v: wasted %v, completed %d, cancelled %d; want %v, %d, %d",
				tc.mode, s.WastedWork, s.Completed, s.Cancelled, tc.wasted, tc.completed, tc.cancelled)
		}
		if busy := time.Duration(s.MeanBusy * float64(time.Second)); busy != tc.busy {
			t.Errorf("%v: the worker was busy %v, want %v", tc.mode, busy, tc.busy)
		}
		if tc.mode == CancelContinuous && !has(lines, "530ms attempt 1", "working -> cancelled", "continuous") {
			t.Errorf("continuous: no cancellation at 30 ms in:\n%s", strings.Join(lines, "\n"))
		}
	}
}

// Two 100 ms work steps, the caller gone at 30 ms: at_step finishes the
// first (wasting the 70 ms after the give-up), skips the second and frees
// the worker at 100 ms; never runs both.
func TestCancelAtStepSkipsNextStep(t *testing.T) {
	two := []Step{{Kind: WorkStep, Work: constant(100 * ms)}, {Kind: WorkStep, Work: constant(100 * ms)}}
	res, lines := observed(t, oneUser(30*ms, CancelAtStep, two...))
	s := svcResult(t, res, "api")
	if s.WastedWork != 70*ms || s.Cancelled != 1 || s.Completed != 0 {
		t.Errorf("at_step: wasted %v, cancelled %d, completed %d; want 70ms, 1, 0", s.WastedWork, s.Cancelled, s.Completed)
	}
	if has(lines, "work step 2") {
		t.Errorf("at_step ran the second step:\n%s", strings.Join(lines, "\n"))
	}
	if !has(lines, "600ms attempt 1", "working -> cancelled", "noticed before step 2") {
		t.Errorf("at_step: no cancellation before step 2 at 100 ms:\n%s", strings.Join(lines, "\n"))
	}
	res = mustRun(t, oneUser(30*ms, CancelNever, two...))
	if s := svcResult(t, res, "api"); s.WastedWork != 200*ms || s.Cancelled != 0 {
		t.Errorf("never: wasted %v, cancelled %d; want 200ms, 0", s.WastedWork, s.Cancelled)
	}
}

// A second request, from another user who sends at 501 ms and times out
// after 30 ms, queued behind a 100 ms one whose caller waits for it:
// never serves it (100 ms of waste), at_step drops it when it reaches
// the head at 600 ms, continuous removes it from the queue at 531 ms.
// Neither cancelling mode gives it a worker.
func TestCancelQueued(t *testing.T) {
	for _, tc := range []struct {
		mode      Cancellation
		wasted    time.Duration
		cancelled uint64
		line      []string
	}{
		{CancelNever, 100 * ms, 0, nil},
		{CancelAtStep, 0, 1, []string{"600ms attempt", "admitted -> cancelled", "dropped at dequeue"}},
		{CancelContinuous, 0, 1, []string{"531ms attempt", "queued -> cancelled", "removed from the queue"}},
	} {
		cfg := oneUser(time.Second, tc.mode, work(constant(100*ms))...)
		late := cfg.Clients[0]
		late.Name, late.ThinkTime, late.Call.Timeout = "late", constant(501*ms), 30*ms
		cfg.Clients = append(cfg.Clients, late)
		res, lines := observed(t, cfg)
		s := svcResult(t, res, "api")
		if s.WastedWork != tc.wasted || s.Cancelled != tc.cancelled || s.Completed != 2-tc.cancelled {
			t.Errorf("%v: wasted %v, cancelled %d, completed %d; want %v, %d, %d",
				tc.mode, s.WastedWork, s.Cancelled, s.Completed, tc.wasted, tc.cancelled, 2-tc.cancelled)
		}
		if tc.line != nil && !has(lines, tc.line...) {
			t.Errorf("%v: no line with %q in:\n%s", tc.mode, tc.line, strings.Join(lines, "\n"))
		}
	}
}

// twoHops: users -> front (one call to back, no timeout of its own) ->
// back (a 100 ms step); the user times out at 30 ms. Both services cancel
// continuously.
func twoHops(propagate bool) Config {
	cfg := oneUser(30*ms, CancelContinuous, callStep("back", true, CallPolicy{}))
	cfg.PropagateCancellation = propagate
	cfg.Services = append(cfg.Services, ServiceConfig{Name: "back", Workers: 1, QueueCapacity: -1,
		Cancellation: CancelContinuous, Steps: work(constant(100 * ms))})
	return cfg
}

// With propagated cancellation, front's cancellation at 30 ms cancels its
// call to back, whose attempt stops at once; without, back runs its step
// to the end for a call whose answer is discarded, and the 70 ms after
// front's cancellation are wasted.
func TestCancelPropagation(t *testing.T) {
	res, lines := observed(t, twoHops(true))
	front, back := svcResult(t, res, "api"), svcResult(t, res, "back")
	if front.Cancelled != 1 || back.Cancelled != 1 || back.Completed != 0 || back.WastedWork != 0 {
		t.Errorf("propagated: front cancelled %d, back cancelled %d, completed %d, wasted %v; want 1, 1, 0, 0",
			front.Cancelled, back.Cancelled, back.Completed, back.WastedWork)
	}
	if !has(lines, "530ms call api->back", "cancelled: its owner was cancelled") || !has(lines, "530ms attempt 1 of api->back", "working -> cancelled") {
		t.Errorf("propagated: back's attempt not cancelled at 30 ms:\n%s", strings.Join(lines, "\n"))
	}
	if busy := time.Duration(back.MeanBusy * float64(time.Second)); busy != 30*ms {
		t.Errorf("propagated: back busy %v, want 30ms", busy)
	}

	res, lines = observed(t, twoHops(false))
	front, back = svcResult(t, res, "api"), svcResult(t, res, "back")
	if front.Cancelled != 1 || back.Cancelled != 0 || back.Completed != 1 || back.Wasted != 1 || back.WastedWork != 70*ms {
		t.Errorf("not propagated: front cancelled %d, back cancelled %d, completed %d, wasted %d, %v; want 1, 0, 1, 1, 70ms",
			front.Cancelled, back.Cancelled, back.Completed, back.Wasted, back.WastedWork)
	}
	if !has(lines, "530ms call api->back", "detached") || !has(lines, "600ms attempt 1 of api->back", "working -> responding") {
		t.Errorf("not propagated: back's call not detached, or its attempt not run to its end:\n%s", strings.Join(lines, "\n"))
	}
}

// at_step notices a call's return: front (at_step) waits on back, whose
// answer comes at 100 ms, long after the user gave up at 30 ms; front
// then stops instead of running its second step.
func TestCancelAtStepOnReturn(t *testing.T) {
	cfg := twoHops(false)
	cfg.Services[0].Cancellation = CancelAtStep
	cfg.Services[0].Steps = append(cfg.Services[0].Steps, Step{Kind: WorkStep, Work: constant(50 * ms)})
	res, lines := observed(t, cfg)
	front := svcResult(t, res, "api")
	if front.Cancelled != 1 || front.Completed != 0 || front.WastedWork != 70*ms {
		t.Errorf("front cancelled %d, completed %d, wasted %v; want 1, 0, 70ms", front.Cancelled, front.Completed, front.WastedWork)
	}
	if !has(lines, "600ms attempt 1 of client:users->api", "calling -> cancelled", "noticed when its calls returned") {
		t.Errorf("front not cancelled when back answered:\n%s", strings.Join(lines, "\n"))
	}
}

// The cancelling paths allocate nothing per request: a run four times as
// long, with as many series points, allocates about as much (the pools
// reach their working size early). Both modes, with propagation, over
// two hops whose every request is cancelled or cut short.
func TestCancelDoesNotAllocate(t *testing.T) {
	for _, mode := range []Cancellation{CancelAtStep, CancelContinuous} {
		allocs := func(d time.Duration) float64 {
			cfg := Config{Name: "allocs", Duration: d, Interval: d / 4, Seed: 2, PropagateDeadlines: true, PropagateCancellation: true,
				Clients: []ClientConfig{{Name: "users", Target: "api", Rate: 2000, Call: CallPolicy{Timeout: 5 * ms, Retry: retries(2)}}},
				Services: []ServiceConfig{
					{Name: "api", Workers: 100, QueueCapacity: -1, Cancellation: mode,
						Steps: []Step{{Kind: WorkStep, Work: expo(ms)}, callStep("db", true, CallPolicy{Timeout: 50 * ms}), {Kind: WorkStep, Work: expo(ms)}}},
					{Name: "db", Workers: 10, QueueCapacity: 500, Cancellation: mode,
						Steps: []Step{{Kind: WorkStep, Work: expo(3 * ms)}, {Kind: WorkStep, Work: expo(3 * ms)}}},
				},
			}
			return testing.AllocsPerRun(2, func() { mustRun(t, cfg) })
		}
		short, long := allocs(5*time.Second), allocs(20*time.Second)
		if long > short*1.2+200 {
			t.Errorf("%v: %.0f allocations in 5 s, %.0f in 20 s: something allocates per request", mode, short, long)
		}
	}
}
