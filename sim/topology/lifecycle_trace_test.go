package topology

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/bulkhead"
	"github.com/ressim/ressim/sim/policies/fallback"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/policies/retry"
)

// A traceScenario is a small system and the event that makes one of its
// requests worth telling: the story of the first traced request whose
// lifecycle contains pick is compared with testdata/lifecycle/NAME.golden
// (go test ./sim/topology -run TestLifecycleTraces -update rewrites them).
type traceScenario struct {
	name string
	cfg  func() Config
	pick string
}

// oneService is a client at rate requests/s calling service "api" with
// workers workers, each request one constant work step.
func oneService(rate float64, workers int, work time.Duration) Config {
	return Config{
		Name: "lifecycle", Duration: 2 * time.Second, Seed: 7,
		Trace:    TraceConfig{Every: 1, Max: 10000},
		Clients:  []ClientConfig{{Name: "users", Target: "api", Rate: rate}},
		Services: []ServiceConfig{{Name: "api", Workers: workers, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: constant(work)}}}},
	}
}

var traceScenarios = []traceScenario{
	{"success", func() Config { return oneService(20, 4, 5*ms) }, "sent"},
	{"timeout_retry_backoff", func() Config {
		c := oneService(20, 4, 50*ms)
		r := retry.DefaultConfig()
		r.Base = 10 * ms
		c.Clients[0].Call = CallPolicy{Timeout: 20 * ms, Retry: r}
		return c
	}, "retry at"},
	{"breaker_refuses", func() Config {
		c := oneService(50, 4, 5*ms)
		b := breaker.DefaultConfig()
		b.SlidingWindowSize, b.MinimumNumberOfCalls = 10, 5
		c.Clients[0].Call.Guards.Breaker = &b
		c.Faults = []FaultConfig{{Kind: ErrorFault, Target: "api", Instance: -1, Rate: 1, Start: 0, End: 2 * time.Second}}
		return c
	}, "the breaker is open"},
	{"bulkhead_wait_expires", func() Config {
		c := oneService(100, 4, 40*ms)
		c.Clients[0].Call.Guards.Bulkhead = &bulkhead.SemaphoreConfig{MaxConcurrentCalls: 1, MaxWaitDuration: 5 * ms}
		return c
	}, "waited for a bulkhead slot in vain"},
	{"fallback_latency", func() Config {
		c := oneService(20, 4, 5*ms)
		c.Clients[0].Call.Guards.Fallback = &FallbackConfig{Level: fallback.Stale, Latency: constant(3 * ms)}
		c.Faults = []FaultConfig{{Kind: ErrorFault, Target: "api", Instance: -1, Rate: 1, Start: 0, End: 2 * time.Second}}
		return c
	}, "the fallback answers in"},
	{"network_each_way", func() Config {
		c := oneService(20, 4, 5*ms)
		c.Clients[0].Call.Network = constant(2 * ms)
		return c
	}, "network delay"},
	{"deadline_at_dequeue", func() Config {
		c := oneService(60, 1, 30*ms)
		c.PropagateDeadlines = true
		c.Clients[0].Deadline = constant(50 * ms)
		c.Services[0].Abandonment = AtDequeue
		return c
	}, "dropped: its deadline passed"},
	{"deadline_on_expiry", func() Config {
		c := oneService(60, 1, 30*ms)
		c.PropagateDeadlines = true
		c.Clients[0].Deadline = constant(50 * ms)
		c.Services[0].Abandonment = OnExpiry
		return c
	}, "abandoned in the queue"},
	{"crash_in_flight", func() Config {
		c := oneService(100, 4, 30*ms)
		c.Services[0].Instances = 2
		c.Faults = []FaultConfig{{Kind: CrashFault, Target: "api", Instance: -1, Count: 1, Start: 500 * ms, End: time.Second}}
		return c
	}, "the instance crashed"},
	{"crash_while_calling", func() Config {
		c := oneService(100, 4, 5*ms)
		c.Services[0].Instances = 2
		c.Services[0].Steps = []Step{{Kind: CallStep, Calls: []CallConfig{{Service: "db", Critical: true}}}}
		c.Services = append(c.Services, ServiceConfig{Name: "db", Workers: 8, QueueCapacity: -1, Steps: []Step{{Kind: WorkStep, Work: constant(30 * ms)}}})
		c.Faults = []FaultConfig{{Kind: CrashFault, Target: "api", Instance: -1, Count: 1, Start: 500 * ms, End: time.Second}}
		return c
	}, "its calls are still out"},
	{"cache_hit", func() Config {
		c := oneService(20, 4, 5*ms)
		c.Services[0].Cache = &CacheConfig{HitRatio: 0.5, Keys: 100, Latency: constant(ms)}
		return c
	}, "cache hit"},
	{"cancelled_propagated", func() Config {
		// The user's attempts time out after 20 ms, while api (continuous)
		// waits on db (continuous, 30 ms): api stops at once, and with
		// propagated cancellation cancels its call to db, whose attempt
		// stops at once too; then the user retries.
		c := oneService(20, 4, 5*ms)
		r := retry.DefaultConfig()
		r.Base = 10 * ms
		c.Clients[0].Call = CallPolicy{Timeout: 20 * ms, Retry: r}
		c.PropagateCancellation = true
		c.Services[0].Cancellation = CancelContinuous
		c.Services[0].Steps = []Step{{Kind: WorkStep, Work: constant(2 * ms)}, {Kind: CallStep, Calls: []CallConfig{{Service: "db", Critical: true}}}}
		c.Services = append(c.Services, ServiceConfig{Name: "db", Workers: 8, QueueCapacity: -1, Cancellation: CancelContinuous,
			Steps: []Step{{Kind: WorkStep, Work: constant(30 * ms)}}})
		return c
	}, "cancelled: its owner was cancelled"},
	{"cancelled_at_step", func() Config {
		// at_step: the caller gives up at 20 ms during the first of two
		// 15 ms steps; the handler stops before the second.
		c := oneService(20, 4, 15*ms)
		c.Clients[0].Call = CallPolicy{Timeout: 20 * ms}
		c.Services[0].Cancellation = CancelAtStep
		c.Services[0].Steps = append(c.Services[0].Steps, c.Services[0].Steps[0])
		c.Services[0].Steps = append(c.Services[0].Steps, c.Services[0].Steps[0])
		return c
	}, "noticed before step"},
	{"hedge_loser", func() Config {
		// A hedged call: a second copy 5 ms after the first if it has not
		// answered; api's work is exponential (mean 10 ms), so either
		// copy may win. The other is cancelled the instant the winner
		// answers, and api (continuous) stops its work at once.
		c := oneService(20, 4, 10*ms)
		c.Services[0].Steps = []Step{{Kind: WorkStep, Work: expo(10 * ms)}}
		c.Services[0].Cancellation = CancelContinuous
		h := hedge.DefaultConfig()
		h.Delay = 5 * ms
		c.Clients[0].Call = CallPolicy{Hedge: h}
		return c
	}, "cancelled: another copy decided the call"},
}

func TestLifecycleTraces(t *testing.T) {
	for _, sc := range traceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			got := lifecycleStory(t, sc)
			path := filepath.Join("testdata", "lifecycle", sc.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("the story of %s changed; got:\n%s\nwant:\n%s", sc.name, got, want)
			}
		})
	}
}

// lifecycleStory runs the scenario with an observer and tells the first
// request whose story contains sc.pick, one line per step.
func lifecycleStory(t *testing.T, sc traceScenario) string {
	t.Helper()
	m, err := New(sc.cfg())
	if err != nil {
		t.Fatal(err)
	}
	stories := map[int32][]transition{}
	m.setObserver(func(tr transition) {
		if tr.req == 0 {
			t.Errorf("untraced step %+v: every request is traced here", tr)
		}
		stories[tr.req] = append(stories[tr.req], tr)
	})
	if _, err := m.Run(); err != nil {
		t.Fatal(err)
	}
	for req := int32(1); int(req) <= len(stories); req++ {
		s := stories[req]
		text := tellStory(s)
		if strings.Contains(text, sc.pick) && strings.Contains(text, "request from users") && isFinished(s) {
			return fmt.Sprintf("# %s: request %d, the first whose story has %q\n%s", sc.name, req, sc.pick, text)
		}
	}
	t.Fatalf("no request's story has %q", sc.pick)
	return ""
}

// isFinished reports whether the user request got its answer or gave up.
func isFinished(s []transition) bool {
	for _, tr := range s {
		if tr.record == "request from users" && tr.why != "sent" {
			return true
		}
	}
	return false
}

func tellStory(s []transition) string {
	var b strings.Builder
	for _, tr := range s {
		what := tr.why
		if tr.to != "" {
			what = tr.from + " -> " + tr.to
			if tr.why != "" {
				what += ": " + tr.why
			}
		}
		fmt.Fprintf(&b, "%12v  %-52s  %s\n", tr.at, tr.record, what)
	}
	return b.String()
}

// TestLifecycleStepsAreLegal checks the transition tables' shape; the
// scenarios above run every move they take through attemptTo and callTo,
// which panic on an illegal one.
func TestLifecycleStepsAreLegal(t *testing.T) {
	// Every scenario ran above with the transition checks on; here each
	// table's rows are checked to name only real phases.
	for p := attemptPhase(0); p < numAttemptPhases; p++ {
		if attemptMoves[p]>>numAttemptPhases != 0 {
			t.Errorf("attempt phase %s moves to an unknown phase", p)
		}
		if p != apDone && attemptMoves[p] == 0 {
			t.Errorf("attempt phase %s is a dead end", p)
		}
	}
	for p := callPhase(0); p < numCallPhases; p++ {
		if callMoves[p]>>numCallPhases != 0 {
			t.Errorf("call phase %s moves to an unknown phase", p)
		}
		if p != cpDone && callMoves[p]&(1<<cpDone) == 0 {
			t.Errorf("call phase %s cannot end", p)
		}
	}
}

// TestImpossibleMovePanics: a move the tables forbid stops the run at the
// step that went wrong, naming the record and the move.
func TestImpossibleMovePanics(t *testing.T) {
	m, err := New(oneService(20, 4, 5*ms))
	if err != nil {
		t.Fatal(err)
	}
	site := m.clients[0].site
	cases := []struct {
		name string
		move func()
		want string
	}{
		{"attempt done -> working", func() { m.attemptTo(0, &attempt{site: site, phase: apDone}, apWorking, "") }, "impossible move done -> working"},
		{"attempt queued -> calling", func() { m.attemptTo(0, &attempt{site: site, phase: apQueued}, apCalling, "") }, "impossible move queued -> calling"},
		{"call done -> attempting", func() { m.callTo(0, &call{site: site, phase: cpDone}, cpAttempting, "") }, "impossible move done -> attempting"},
		{"call fallback -> backing off", func() { m.callTo(0, &call{site: site, phase: cpFallback}, cpBackoff, "") }, "impossible move fallback -> backing off"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tc.want) || !strings.Contains(msg, site.name()) {
					t.Errorf("panic %q, want %q naming %s", msg, tc.want, site.name())
				}
			}()
			tc.move()
		})
	}
}
