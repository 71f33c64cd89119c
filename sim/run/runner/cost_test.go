package runner

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// TestEstimateFormula checks the documented formula on small models
// whose event counts can be written by hand.
func TestEstimateFormula(t *testing.T) {
	base := `schema = 1
[experiment]
name = "e"
duration = "10s"
interval = "1s"
[[service]]
name = "leaf"
workers = 1
service_time = { dist = "constant", mean = "1ms" }
`
	front := "[[service]]\nname = \"front\"\nworkers = 2\nqueue_capacity = 3\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n"
	steps := []struct {
		name, extra string
		want        float64
	}{
		// 100/s x 10 s x (4 + 1 work step) + 10 intervals x (1 + 1 service + 1 client)
		{"open loop", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\n", 100*10*5 + 10*3},
		// retries: 3 attempts x 5
		{"retries", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\ntimeout = \"1s\"\nretry = { attempts = 3 }\n", 100*10*15 + 10*3},
		// hedges: 3 copies x (4 + 1 hedge timer + 1 work step)
		{"hedges", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\nhedge = { attempts = 3, delay = \"1ms\" }\n", 100*10*18 + 10*3},
		// a load fault x 4 for 1 s of the 10: 100/s x 9 s + 400/s x 1 s
		{"load fault", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nrate = 100\n[[fault]]\nkind = \"load\"\ntarget = \"c\"\nstart = \"1s\"\nduration = \"1s\"\nmultiply = 4\n", (100*9+400)*5 + 10*3},
		// a burst: 10000/s for 100 ms, then 10/s: counted for its length, not held
		{"burst", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nschedule = [{ at = \"0s\", rate = 10000 }, { at = \"100ms\", rate = 10 }]\n", (1000+10*9.9)*5 + 10*3},
		// a linear ramp from 0 to 200/s over the 10 s: 1000 requests
		{"ramp", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nschedule = [{ at = \"0s\", rate = 0 }, { at = \"10s\", rate = 200 }]\ninterpolate = \"linear\"\n", 1000*5 + 10*3},
		// a choose step: 80/20 between leaf and a second leaf, each call
		// (4 events + 1 work step) weighted by its share, so 100/s x 10 s x
		// (4 + 1 + 0.8 x 5 + 0.2 x 5) + 10 x (1 + 3 services + 1 client)
		{"choose", "[[client]]\nname = \"c\"\ntarget = \"front\"\nrate = 100\n" +
			"[[service]]\nname = \"front\"\nworkers = 1\n[[service.step]]\nchoose = [ { call = \"leaf\", weight = 80 }, { call = \"leaf2\", weight = 20 } ]\n" +
			"[[service]]\nname = \"leaf2\"\nworkers = 1\nservice_time = { dist = \"constant\", mean = \"1ms\" }\n",
			100*10*(4+1+0.8*5+0.2*5) + 10*5},
		// closed loop: 10 users x 10 s / (99 ms think + 1 ms work) = 1000 requests
		{"closed loop", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"99ms\" }\n", 1000*5 + 10*3},
		// 1 ms of think time: 10 x 10 s / (1 ms + 1 ms of work) requests
		{"closed loop, short think", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"1ms\" }\n", 10*10/0.002*5 + 10*3},
		// ... but requests that may come back at once (an open breaker
		// refuses them; leaf's instance crashes) take no work: a user's
		// cycle is its think time alone, twice the requests
		{"closed loop, breaker", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"1ms\" }\nbreaker = {}\n", 10*10/0.001*5 + 10*3},
		{"closed loop, crash", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"1ms\" }\n[[fault]]\nkind = \"crash\"\ntarget = \"leaf\"\nstart = \"1s\"\nduration = \"1s\"\n", 10*10/0.001*5 + 10*3},
		// ... and without think time, no bound: the users send for ever at
		// one instant while the breaker is open
		{"closed loop, no think, breaker", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"0s\" }\nbreaker = {}\n", math.Inf(1)},
		// no think time, but nothing refuses at once (an unbounded queue):
		// the 1 ms of work bounds the cycle
		{"closed loop, no think", "[[client]]\nname = \"c\"\ntarget = \"leaf\"\nusers = 10\nthink_time = { dist = \"constant\", mean = \"0s\" }\n", 10*10/0.001*5 + 10*3},
		// a bounded queue refuses at once only once full: 5 users fit in
		// front's room of 2 workers + 3 places, 6 do not
		{"closed loop, room", front + "[[client]]\nname = \"c\"\ntarget = \"front\"\nusers = 5\nthink_time = { dist = \"constant\", mean = \"1ms\" }\n", 5*10/0.002*5 + 10*4},
		{"closed loop, no room", front + "[[client]]\nname = \"c\"\ntarget = \"front\"\nusers = 6\nthink_time = { dist = \"constant\", mean = \"1ms\" }\n", 6*10/0.001*5 + 10*4},
	}
	for _, s := range steps {
		exp, err := experiment.Parse("e.toml", []byte(base+s.extra))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got := Estimate(exp.Model).Events
		if math.IsInf(s.want, 1) != math.IsInf(got, 1) || math.Abs(got-s.want) > 1e-6*s.want {
			t.Errorf("%s: %v events, want %v", s.name, got, s.want)
		}
	}
}

// TestMeterStops: the run-time guard stops on each budget, with the
// budget's name and flag, and on cancellation.
func TestMeterStops(t *testing.T) {
	g := NewMeter(context.Background(), Budget{MaxEvents: 100000})
	var stop error
	for i := 0; i < 100 && stop == nil; i++ {
		stop = g.Check(16384)
	}
	var be *BudgetError
	if !errors.As(stop, &be) || be.Resource != "events" || be.Estimated || be.Used <= 100000 || !errors.Is(stop, ErrBudget) {
		t.Fatalf("events: %v", stop)
	}
	if err := NewMeter(context.Background(), Budget{MaxMemory: 1}).Check(1); !errors.As(err, &be) || be.Resource != "memory" || be.Flag != "--max-memory" {
		t.Fatalf("memory: %v", err)
	}
	if err := NewMeter(context.Background(), Budget{Timeout: 1}).Check(1); !errors.As(err, &be) || be.Resource != "wall time" || be.Flag != "--timeout" {
		t.Fatalf("wall time: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := NewMeter(ctx, Budget{}).Check(1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
}

// TestEstimateCountsEventLog: the memory estimate holds the event log at
// its cap, 120 bytes an event, and follows a configured cap.
func TestEstimateCountsEventLog(t *testing.T) {
	exp, err := experiment.Load(filepath.Join("testdata", "small.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := exp.Model
	def := Estimate(cfg).Memory
	cfg.EventLogCap = 2 * topology.DefaultEventLogCap
	if got, want := Estimate(cfg).Memory-def, float64(bytesPerEvent*topology.DefaultEventLogCap); got != want {
		t.Errorf("doubling the cap adds %g bytes, want %g", got, want)
	}
}

// TestCheckRefusesEndlessClosedLoop: users without think time whose
// requests an open breaker refuses would send them for ever at one
// instant (a run that never ends); the budget refuses the file before it
// runs, saying which client and key.
func TestCheckRefusesEndlessClosedLoop(t *testing.T) {
	exp, err := experiment.Parse("e.toml", []byte(`schema = 1
[experiment]
name = "e"
duration = "10s"
[[client]]
name = "c"
target = "leaf"
users = 10
think_time = { dist = "constant", mean = "0s" }
breaker = {}
[[service]]
name = "leaf"
workers = 1
service_time = { dist = "constant", mean = "1ms" }
`))
	if err != nil {
		t.Fatal(err)
	}
	err = DefaultBudget.Check([]PlannedRun{{Model: exp.Model, Times: 1}})
	var be *BudgetError
	if !errors.As(err, &be) || be.Resource != "events" || !be.Estimated || !strings.Contains(err.Error(), `one instant (client "c" users): give its think_time a mean above 0`) {
		t.Errorf("err = %v", err)
	}
}

// TestEstimateCountsRaisedRetries: a timed action that raises a call
// site's retry attempts raises the estimate as if the file had them
// (an upper bound); one that lowers them changes nothing.
func TestEstimateCountsRaisedRetries(t *testing.T) {
	src := `schema = 1
[experiment]
name = "e"
duration = "100s"
[[client]]
name = "users"
target = "api"
rate = 100
retry = { attempts = 1 }
[[service]]
name = "api"
workers = 10
  [[service.step]]
  work = { dist = "exponential", mean = "1ms" }
  [[service.step]]
  call = "db"
  retry = { attempts = 1 }
[[service]]
name = "db"
workers = 10
service_time = { dist = "exponential", mean = "1ms" }
`
	est := func(extra string) float64 {
		t.Helper()
		exp, err := experiment.Parse("e.toml", []byte(src+extra))
		if err != nil {
			t.Fatal(err)
		}
		return Estimate(exp.Model).Events
	}
	base := est("")
	for _, c := range []struct {
		name, path string
		nth        int // the retry table of the call site, in file order
	}{{"client", "client.users.retry.attempts", 1}, {"step", "service.api.step.1.retry.attempts", 2}} {
		raised := est("[[action]]\nat = \"50s\"\nset = { \"" + c.path + "\" = 3 }\n")
		// The same file with 3 attempts at that call site from the start.
		parts := strings.SplitAfterN(src, "retry = { attempts = 1 }", c.nth+1)
		parts[c.nth-1] = strings.Replace(parts[c.nth-1], "attempts = 1", "attempts = 3", 1)
		exp, err := experiment.Parse("e.toml", []byte(strings.Join(parts, "")))
		if err != nil {
			t.Fatal(err)
		}
		if want := Estimate(exp.Model).Events; raised != want || raised <= base {
			t.Errorf("%s: raising the attempts to 3 mid-run estimates %g events, want %g (the file with 3), more than %g", c.name, raised, want, base)
		}
	}
	if lowered := est("[[action]]\nat = \"50s\"\nset = { \"client.users.retry.attempts\" = 1 }\n"); lowered != base {
		t.Errorf("an action that keeps 1 attempt changes the estimate: %g, want %g", lowered, base)
	}
}
