package experiments_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/metrics"
	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/topology"
)

// effectsBase is a small system on which every action kind and every
// mid-run path has a measurable effect after its instant (30 s): the
// client users calls api (3 instances of 10 workers), whose default
// handler calls db through a single call (with retries, a breaker and a
// fallback), a parallel step and a choose step; the client ops calls
// api's operation get, which does the same three kinds of call. Each
// call to db names its own operation, so that each is its own call site.
const effectsBase = `schema = 1
[experiment]
name = "action-effects"
duration = "60s"

[[client]]
name = "users"
target = "api"
rate = 400
timeout = "2s"
retry = { attempts = 3, backoff = "none" }

[[client]]
name = "ops"
target = "api"
operation = "get"
rate = 100
timeout = "2s"

[[service]]
name = "api"
instances = 3
workers = 10
queue_capacity = 1000
  [[service.step]]
  work = { dist = "exponential", mean = "5ms" }
  [[service.step]]
  call = "db"
  operation = "one"
  critical = false
  timeout = "200ms"
  retry = { attempts = 2, backoff = "none" }
  breaker = { minimum_calls = 20, failure_rate = 50 }
  fallback = { level = "generic" }
  [[service.step]]
  parallel = [
    { call = "db", operation = "par", timeout = "200ms", retry = { attempts = 2, backoff = "none" } },
    { call = "side", timeout = "200ms" },
  ]
  [[service.step]]
  choose = [
    { call = "db", operation = "cho", weight = 50, timeout = "200ms", retry = { attempts = 2, backoff = "none" } },
    { call = "side", operation = "cho", weight = 50, timeout = "200ms" },
  ]
  [[service.operation]]
  name = "get"
    [[service.operation.step]]
    call = "db"
    operation = "get-one"
    timeout = "200ms"
    retry = { attempts = 2, backoff = "none" }
    [[service.operation.step]]
    parallel = [
      { call = "db", operation = "get-par", timeout = "200ms", retry = { attempts = 2, backoff = "none" } },
      { call = "side", operation = "get-par", timeout = "200ms" },
    ]
    [[service.operation.step]]
    choose = [
      { call = "db", operation = "get-cho", weight = 50, timeout = "200ms", retry = { attempts = 2, backoff = "none" } },
      { call = "side", operation = "get-cho", weight = 50, timeout = "200ms" },
    ]

[[service]]
name = "side"
mode = "async"
max_in_flight = 100
service_time = { dist = "exponential", mean = "2ms" }

[[service]]
name = "db"
workers = 20
service_time = { dist = "exponential", mean = "2ms" }
`

// dbErrors makes a fifth of db's answers errors for the whole run, so
// that the calls to db retry.
const dbErrors = `
[[fault]]
kind = "error"
target = "db"
start = "0s"
end = "60s"
rate = 0.2
`

// effectsRun reads effectsBase with extra, runs it, and returns the
// result and its summary.json decoded.
func effectsRun(t *testing.T, extra string) (*topology.Result, map[string]any) {
	t.Helper()
	exp, err := experiment.Parse("effects.toml", []byte(effectsBase+extra))
	if err != nil {
		t.Fatal(err)
	}
	res := runModel(t, exp.Model)
	b, err := run.SummaryJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return res, sum
}

// summaryService is one service's object in summary.json.
func summaryService(t *testing.T, sum map[string]any, name string) map[string]any {
	t.Helper()
	svcs, _ := sum["services"].(map[string]any)
	s, ok := svcs[name].(map[string]any)
	if !ok {
		t.Fatalf("summary.json has no service %q: %v", name, sum["services"])
	}
	return s
}

// before and after are the windows either side of the actions at 30 s
// (a second left out after it, for the work in flight).

func before(t *testing.T, res *topology.Result, entity, metric string) float64 {
	return mean(t, res, entity, metric, 10*sec, 30*sec)
}

func after(t *testing.T, res *topology.Result, entity, metric string) float64 {
	return mean(t, res, entity, metric, 32*sec, 60*sec)
}

// near reports whether got is within tol (a share) of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// TestActionEffects runs a small experiment per action kind and per
// mid-run path, and checks the effect in the time series and
// summary.json after the action's instant.
func TestActionEffects(t *testing.T) {
	retryCut := func(site string) func(t *testing.T, res *topology.Result, sum map[string]any) {
		return func(t *testing.T, res *topology.Result, sum map[string]any) {
			if b, a := before(t, res, site, "retries"), after(t, res, site, "retries"); b < 1 || a != 0 {
				t.Errorf("%s retries: %.1f/s before, %.1f/s after; want some, then none", site, b, a)
			}
		}
	}
	tests := []struct {
		name, extra string
		check       func(t *testing.T, res *topology.Result, sum map[string]any)
	}{
		{"client.NAME.rate", `
[[action]]
at = "30s"
set = { "client.users.rate" = 100 }`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			if b, a := before(t, res, "users", "sent"), after(t, res, "users", "sent"); !near(b, 400, 0.1) || !near(a, 100, 0.15) {
				t.Errorf("users sent %.0f/s before, %.0f/s after; want 400, then 100", b, a)
			}
		}},
		{"client.NAME.retry.attempts", dbErrors + `
[[fault]]
kind = "error"
target = "api"
start = "0s"
end = "60s"
rate = 0.2
[[action]]
at = "30s"
set = { "client.users.retry.attempts" = 1 }`, retryCut("client:users->api/call")},
		{"service.NAME.step.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.step.1.retry.attempts" = 1 }`, retryCut("api->db/one")},
		{"service.NAME.step.N.parallel.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.step.2.parallel.0.retry.attempts" = 1 }`, retryCut("api->db/par")},
		{"service.NAME.step.N.choose.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.step.3.choose.0.retry.attempts" = 1 }`, retryCut("api->db/cho")},
		{"service.NAME.operation.NAME.step.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.operation.get.step.0.retry.attempts" = 1 }`, retryCut("api->db/get-one")},
		{"service.NAME.operation.NAME.step.N.parallel.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.operation.get.step.1.parallel.0.retry.attempts" = 1 }`, retryCut("api->db/get-par")},
		{"service.NAME.operation.NAME.step.N.choose.N.retry.attempts", dbErrors + `
[[action]]
at = "30s"
set = { "service.api.operation.get.step.2.choose.0.retry.attempts" = 1 }`, retryCut("api->db/get-cho")},
		{"service.NAME.workers", `
[[action]]
at = "30s"
set = { "service.api.workers" = 1 }`, func(t *testing.T, res *topology.Result, sum map[string]any) {
			if b, a := before(t, res, "api", "workers"), after(t, res, "api", "workers"); b != 30 || a != 3 {
				t.Errorf("api workers %.0f before, %.0f after; want 30, then 3", b, a)
			}
			if b, a := before(t, res, "api", "queue_length"), after(t, res, "api", "queue_length"); a < 2 || a < 10*b {
				t.Errorf("api queue %.2f before, %.2f after; want it to grow", b, a)
			}
			s := summaryService(t, sum, "api")
			if s["workers"] != 1.0 {
				t.Errorf("summary.json api workers = %v, want 1 (the value at the end)", s["workers"])
			}
			// 30 workers for 30 s, then 3: 16.5 on average.
			busy := service(t, res, "api").MeanBusy
			if u := s["utilization"].(float64); !near(u, busy/16.5, 1e-9) {
				t.Errorf("summary.json api utilization = %v, want mean busy %v over 16.5 workers = %v", u, busy, busy/16.5)
			}
		}},
		{"service.NAME.max_in_flight", `
[[action]]
at = "30s"
set = { "service.side.max_in_flight" = 1 }`, func(t *testing.T, res *topology.Result, sum map[string]any) {
			if b, a := before(t, res, "side", "workers"), after(t, res, "side", "workers"); b != 100 || a != 1 {
				t.Errorf("side slots %.0f before, %.0f after; want 100, then 1", b, a)
			}
			// About 1.5 slots were busy: one slot is all there is after.
			if b, a := before(t, res, "side", "busy_workers"), after(t, res, "side", "busy_workers"); b < 1.2 || a > 1 {
				t.Errorf("side busy slots %.2f before, %.2f after; want about 1.5, then at most 1", b, a)
			}
			if s := summaryService(t, sum, "side"); s["workers"] != 1.0 {
				t.Errorf("summary.json side workers = %v, want 1", s["workers"])
			}
		}},
		{"service.NAME.queue_capacity", `
[[action]]
at = "0s"
set = { "service.api.workers" = 2 }
[[action]]
at = "30s"
set = { "service.api.queue_capacity" = 1 }`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			if b, a := before(t, res, "api", "rejected"), after(t, res, "api", "rejected"); b > 1 || a < 10 {
				t.Errorf("api rejected %.1f/s before, %.1f/s after; want about none, then many", b, a)
			}
			if a := after(t, res, "api", "queue_length"); a > 3 {
				t.Errorf("api queue %.2f after the bound of 1 per instance, want at most 3", a)
			}
		}},
		{"kill_switch", `
[[action]]
at = "30s"
kind = "kill_switch"
target = "db"
caller = "api"
state = "on"
[[action]]
at = "45s"
kind = "kill_switch"
target = "db"
caller = "api"
state = "off"`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			// Every call of api's first step is answered by its fallback
			// while the switch is on: all of api's arrivals but ops' 100/s
			// (the killed parallel call fails the users' requests, which
			// they retry).
			site := "api->db/one"
			arr := mean(t, res, "api", "arrivals", 31*sec, 45*sec)
			if b, on, off := before(t, res, site, "fallback"), mean(t, res, site, "fallback", 31*sec, 45*sec), mean(t, res, site, "fallback", 46*sec, 60*sec); b != 0 || !near(on, arr-100, 0.05) || off != 0 {
				t.Errorf("%s fallback %.0f/s before, %.0f/s while on (api arrivals %.0f/s), %.0f/s after off; want 0, all but ops', 0", site, b, on, arr, off)
			}
			if on, off := mean(t, res, "db", "arrivals", 31*sec, 45*sec), mean(t, res, "db", "arrivals", 46*sec, 60*sec); on != 0 || off < 1000 {
				t.Errorf("db arrivals %.0f/s while on, %.0f/s after off; want 0, then back", on, off)
			}
		}},
		{"shed", `
[[action]]
at = "30s"
kind = "shed"
target = "users"
share = 0.5`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			b, a := before(t, res, "users", "goodput"), after(t, res, "users", "goodput")
			if !near(a, b/2, 0.1) {
				t.Errorf("users goodput %.0f/s before, %.0f/s after shedding half; want half", b, a)
			}
			// api's arrivals: 400 users' and 100 ops' before, 200 + 100 after.
			if b, a := before(t, res, "api", "arrivals"), after(t, res, "api", "arrivals"); !near(a/b, 0.6, 0.1) {
				t.Errorf("api arrivals %.0f/s before, %.0f/s after; want 60 %%", b, a)
			}
		}},
		{"force_breaker open, then auto", `
[[action]]
at = "30s"
kind = "force_breaker"
target = "db"
state = "open"
[[action]]
at = "45s"
kind = "force_breaker"
target = "db"
state = "auto"`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			site := "api->db/one"
			st := func(from, to time.Duration) float64 { return mean(t, res, site, "breaker_state", from, to) }
			// The state is sampled at each interval's end.
			if st(10*sec, 29*sec) != 0 || st(30*sec, 44*sec) != 2 || st(45*sec, 60*sec) != 0 {
				t.Errorf("%s breaker state %v, %v, %v; want closed, open, closed", site, st(10*sec, 29*sec), st(30*sec, 44*sec), st(45*sec, 60*sec))
			}
			if sc := mean(t, res, site, "short_circuited", 30*sec, 45*sec); !near(sc, 400, 0.1) {
				t.Errorf("%s short-circuited %.0f/s while forced open, want every call (400/s)", site, sc)
			}
			if fb := mean(t, res, site, "fallback", 30*sec, 45*sec); !near(fb, 400, 0.1) {
				t.Errorf("%s fallback %.0f/s while forced open, want 400/s", site, fb)
			}
			if sc := mean(t, res, site, "short_circuited", 46*sec, 60*sec); sc != 0 {
				t.Errorf("%s short-circuited %.0f/s after auto, want none", site, sc)
			}
		}},
		{"force_breaker closed keeps a failing call's breaker closed", `
[[fault]]
kind = "error"
target = "db"
start = "35s"
end = "50s"
rate = 1
[[action]]
at = "30s"
kind = "force_breaker"
target = "db"
caller = "api"
state = "closed"`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			site := "api->db/one"
			if st, sc := mean(t, res, site, "breaker_state", 35*sec, 50*sec), mean(t, res, site, "short_circuited", 35*sec, 50*sec); st != 0 || sc != 0 {
				t.Errorf("%s breaker state %.1f, %.0f short-circuited/s during the errors; want closed, none", site, st, sc)
			}
		}},
		{"control: without force_breaker the failing call's breaker opens", `
[[fault]]
kind = "error"
target = "db"
start = "35s"
end = "50s"
rate = 1`, func(t *testing.T, res *topology.Result, _ map[string]any) {
			site := "api->db/one"
			if sc := mean(t, res, site, "short_circuited", 35*sec, 50*sec); sc < 100 {
				t.Errorf("%s short-circuited %.0f/s during the errors, want the breaker open", site, sc)
			}
		}},
		{"instances", `
[[action]]
at = "30s"
kind = "instances"
target = "api"
count = 1`, func(t *testing.T, res *topology.Result, sum map[string]any) {
			if b, a := before(t, res, "api", "workers"), after(t, res, "api", "workers"); b != 30 || a != 10 {
				t.Errorf("api workers %.0f before, %.0f after; want 30, then 10", b, a)
			}
			// Instance 0 takes a third of the load for 30 s, then all of
			// it for 30 s: 4 times what instance 1 takes, whose share
			// stops at 30 s.
			ia := service(t, res, "api").InstanceArrivals
			if r := float64(ia[0]) / float64(ia[1]); !near(r, 4, 0.1) || ia[1] != ia[2] && !near(float64(ia[1]), float64(ia[2]), 0.1) {
				t.Errorf("api instance arrivals %v: want instance 0 about 4 times each other", ia)
			}
			s := summaryService(t, sum, "api")
			busy := service(t, res, "api").MeanBusy
			if u := s["utilization"].(float64); !near(u, busy/20, 1e-9) {
				t.Errorf("summary.json api utilization = %v, want mean busy %v over 20 workers on average", u, busy)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, sum := effectsRun(t, tt.extra)
			tt.check(t, res, sum)
		})
	}
}

// TestActionKindsAndPathsCovered holds TestActionEffects to every action
// kind and mid-run path the reader knows.
func TestActionKindsAndPathsCovered(t *testing.T) {
	covered := map[string]bool{
		"kill_switch": true, "force_breaker": true, "shed": true, "instances": true,
	}
	for _, p := range []string{
		"client.NAME.rate", "client.NAME.retry.attempts", "service.NAME.workers", "service.NAME.max_in_flight",
		"service.NAME.queue_capacity", "service.NAME.step.N.retry.attempts", "service.NAME.step.N.parallel.N.retry.attempts",
		"service.NAME.step.N.choose.N.retry.attempts", "service.NAME.operation.NAME.step.N.retry.attempts",
		"service.NAME.operation.NAME.step.N.parallel.N.retry.attempts", "service.NAME.operation.NAME.step.N.choose.N.retry.attempts",
	} {
		covered[p] = true
	}
	for _, k := range append(append([]string{}, experiment.ActionKinds...), experiment.MidRunPaths...) {
		if !covered[k] {
			t.Errorf("TestActionEffects has no case for %q", k)
		}
	}
}

// TestOperatorActionsReplay: a file with every operator move replays to
// the same bytes (summary.json and timeseries.csv).
func TestOperatorActionsReplay(t *testing.T) {
	extra := `
[[action]]
at = "20s"
kind = "force_breaker"
target = "db"
state = "open"
[[action]]
at = "25s"
kind = "instances"
target = "api"
count = 2
[[action]]
at = "30s"
kind = "shed"
target = "users"
share = 0.3
[[action]]
at = "35s"
kind = "kill_switch"
target = "side"
state = "on"
[[action]]
at = "40s"
kind = "force_breaker"
target = "db"
state = "auto"
[[action]]
at = "45s"
kind = "instances"
target = "api"
count = 3`
	var sums, series [2][]byte
	for i := range sums {
		exp, err := experiment.Parse("replay.toml", []byte(effectsBase+extra))
		if err != nil {
			t.Fatal(err)
		}
		res := runModel(t, exp.Model)
		if len(res.Actions) != 6 {
			t.Fatalf("%d actions ran, want 6", len(res.Actions))
		}
		if sums[i], err = run.SummaryJSON(res); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := metrics.WriteCSV(&b, res.Series); err != nil {
			t.Fatal(err)
		}
		series[i] = b.Bytes()
	}
	if !bytes.Equal(sums[0], sums[1]) || !bytes.Equal(series[0], series[1]) {
		t.Error("two runs of the file with its operator moves differ")
	}
}
