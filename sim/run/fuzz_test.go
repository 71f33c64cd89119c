package run

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// FuzzRunAccepted runs every experiment file the loader accepts (when it
// is small enough to simulate quickly): no accepted input may make the
// model panic or fail, and the outputs must render.
func FuzzRunAccepted(f *testing.F) {
	f.Add([]byte(`schema = 1
[experiment]
name = "f"
duration = "5s"
[[client]]
name = "c"
target = "a"
rate = 50
timeout = "50ms"
retry = { attempts = 3, backoff = "none" }
breaker = { minimum_calls = 5 }
[[service]]
name = "a"
instances = 2
workers = 2
queue_capacity = 3
shed = {}
limit = { algorithm = "vegas" }
outlier = {}
readiness = { period = "1s" }
liveness = { period = "1s", timeout = "10ms" }
  [[service.step]]
  parallel = [ { call = "b", critical = false, fallback = { level = "stale", fail_rate = 0.5 } }, { call = "b", probability = 0.5, bulkhead = { kind = "pool", max_threads = 1, queue = 1 } } ]
[[service]]
name = "b"
workers = 1
queue_capacity = 2
lifo = {}
service_time = { dist = "exponential", mean = "20ms" }
[[fault]]
kind = "crash"
target = "b"
start = "1s"
duration = "1s"
[[fault]]
kind = "kill_switch"
target = "b"
start = "3s"
duration = "1s"
`))
	// Both abandonment semantics, with CoDel, retries, timeouts and a
	// crash, under propagated deadlines.
	f.Add([]byte(`schema = 1
[experiment]
name = "g"
duration = "5s"
propagate_deadlines = true
[[client]]
name = "c"
target = "a"
rate = 400
deadline = { dist = "exponential", mean = "30ms" }
timeout = "40ms"
retry = { attempts = 2, backoff = "none" }
[[service]]
name = "a"
workers = 2
queue_capacity = 5
abandonment = "on_expiry"
codel = {}
  [[service.step]]
  call = "b"
[[service]]
name = "b"
workers = 1
queue_capacity = 4
abandonment = "at_dequeue"
service_time = { dist = "exponential", mean = "5ms" }
[[fault]]
kind = "crash"
target = "a"
start = "1s"
duration = "1s"
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		exp, err := experiment.Parse("fuzz.toml", data)
		if err != nil {
			if !errors.Is(err, experiment.ErrInvalid) {
				t.Fatalf("error is not ErrInvalid: %v", err)
			}
			return
		}
		if !small(&exp.Model) {
			return
		}
		m, err := topology.New(exp.Model)
		if err != nil {
			t.Fatalf("accepted file fails to build: %v", err)
		}
		res, err := m.Run()
		if err != nil {
			t.Fatalf("accepted file fails to run: %v", err)
		}
		if _, err := SummaryJSON(res); err != nil {
			t.Fatal(err)
		}
		NewHeadline(res)
	})
}

// small reports whether a model is cheap enough to run in a fuzz
// iteration: a short run, modest load, few workers and intervals.
func small(c *topology.Config) bool {
	if c.Duration > 20*time.Second || (c.Interval > 0 && c.Duration/c.Interval > 2000) {
		return false
	}
	for _, cl := range c.Clients {
		rate := cl.Rate
		for _, p := range cl.Schedule {
			rate = max(rate, p.Rate)
		}
		if rate*c.Duration.Seconds() > 5000 || cl.Users > 100 {
			return false
		}
	}
	for _, s := range c.Services {
		if s.Instances > 20 || s.Workers > 1000 || s.MaxInFlight > 100000 {
			return false
		}
	}
	return true
}
