package experiment

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/topology"
)

const actionBase = `schema = 1
[experiment]
name = "acts"
duration = "300s"

[[client]]
name = "users"
target = "api"
rate = 500
timeout = "100ms"
retry = { attempts = 3, backoff = "none" }

[[service]]
name = "api"
workers = 10
queue_capacity = 100
  [[service.step]]
  work = { dist = "exponential", mean = "1ms" }
  [[service.step]]
  call = "db"
  timeout = "50ms"
  retry = { attempts = 2, backoff = "none" }

[[service]]
name = "db"
workers = 20
service_time = { dist = "exponential", mean = "5ms" }
`

func TestActions(t *testing.T) {
	tests := []struct {
		name, actions string
		want          []topology.ActionConfig // nil: compare only the count 0
		err           string                  // the error's substring, with its position
	}{
		{"client retries", `
[[action]]
at = "120s"
label = "cut"
set = { "client.users.retry.attempts" = 1 }`, []topology.ActionConfig{{At: 120 * time.Second, Kind: topology.ActionRetryAttempts, Label: "cut",
			Subject: "client.users.retry.attempts", Call: topology.CallRef{Client: "users"}, Int: 1}}, ""},
		{"a step's retries by call name, and workers, in key order", `
[[action]]
at = "1m"
set = { "service.api.workers" = 20, "service.api.step.db.retry.attempts" = 1 }`, []topology.ActionConfig{
			{At: time.Minute, Kind: topology.ActionRetryAttempts, Subject: "service.api.step.db.retry.attempts", Call: topology.CallRef{Service: "api", Step: 1}, Int: 1},
			{At: time.Minute, Kind: topology.ActionWorkers, Subject: "service.api.workers", Service: "api", Int: 20}}, ""},
		{"rate, queue, kill switch, shed", `
[[action]]
at = "10s"
set = { "client.users.rate" = 250.5, "service.api.queue_capacity" = 5 }
[[action]]
at = "20s"
kind = "kill_switch"
target = "db"
caller = "api"
state = "on"
[[action]]
at = "30s"
kind = "shed"
target = "users"
share = 0.25`, []topology.ActionConfig{
			{At: 10 * time.Second, Kind: topology.ActionClientRate, Subject: "client.users.rate", Client: "users", Value: 250.5},
			{At: 10 * time.Second, Kind: topology.ActionQueueCapacity, Subject: "service.api.queue_capacity", Service: "api", Int: 5},
			{At: 20 * time.Second, Kind: topology.ActionKillSwitch, Service: "db", Caller: "api", On: true},
			{At: 30 * time.Second, Kind: topology.ActionShed, Client: "users", Value: 0.25}}, ""},
		{"unknown path", `
[[action]]
at = "10s"
set = { "client.nosuch.retry.attempts" = 1 }`, nil, `a.toml:31:9: action[0].set.client.nosuch.retry.attempts: set "client.nosuch.retry.attempts": client: no element named "nosuch"`},
		{"a setting that cannot change mid-run", `
[[action]]
at = "10s"
set = { "client.users.timeout" = "1s" }`, nil, `set "client.users.timeout": this setting cannot change mid-run; an action may set: client.NAME.rate`},
		{"a whole table cannot change mid-run", `
[[action]]
at = "10s"
set = { "client.users.retry" = { attempts = 1 } }`, nil, `cannot change mid-run`},
		{"a value out of range, in the file's words", `
[[action]]
at = "10s"
set = { "service.api.workers" = 0 }`, nil, `set "service.api.workers" = 0: service[0].workers: must be in [1, 1000000], got 0`},
		{"at beyond the run", `
[[action]]
at = "300s"
set = { "service.api.workers" = 3 }`, nil, `a.toml:30:1: action[0].at: the action is at 5m0s, not before the run ends (5m0s)`},
		{"at required", `
[[action]]
set = { "service.api.workers" = 3 }`, nil, `missing required key "at"`},
		{"set and kind together", `
[[action]]
at = "1s"
kind = "shed"
set = { "service.api.workers" = 3 }`, nil, `either set = { "path" = value } or kind, not both`},
		{"unknown kind", `
[[action]]
at = "1s"
kind = "kill_swtch"
target = "db"`, nil, `unknown action kind "kill_swtch" (did you mean "kill_switch"?)`},
		{"force_breaker of a call without a breaker", `
[[action]]
at = "1s"
kind = "force_breaker"
target = "db"
state = "open"`, nil, `a.toml:32:1: action[0].target: no call to "db" has a breaker`},
		{"shed share out of range", `
[[action]]
at = "1s"
kind = "shed"
target = "users"
share = 1.5`, nil, `action[0].share: must be in [0, 1]`},
		{"kill switch of an unknown service", `
[[action]]
at = "1s"
kind = "kill_switch"
target = "nosuch"
state = "on"`, nil, `action[0].target: unknown service "nosuch"`},
		// Checked by the model, once the value is read: told at the set
		// key, not at the file's first line as it was.
		{"a queue bound for an async service", `
[[service]]
name = "q"
mode = "async"
max_in_flight = 10
service_time = { dist = "exponential", mean = "5ms" }
[[action]]
at = "10s"
set = { "service.q.queue_capacity" = 5 }`, nil, `a.toml:36:9: action[0].set.service.q.queue_capacity: set "service.q.queue_capacity" = 5: service "q" is async: it has no queue`},
		{"a queue bound for a lifo service", `
[[service]]
name = "l"
workers = 2
queue_capacity = 10
lifo = {}
service_time = { dist = "exponential", mean = "5ms" }
[[action]]
at = "10s"
set = { "service.l.queue_capacity" = 5 }`, nil, `a.toml:37:9: action[0].set.service.l.queue_capacity: set "service.l.queue_capacity" = 5: service "l" uses lifo, whose queue bound cannot change mid-run`},
		{"a kill switch from an unknown client", `
[[action]]
at = "1s"
kind = "kill_switch"
target = "db"
caller = "client:nobody"
state = "on"`, nil, `a.toml:33:1: action[0].caller: unknown caller "client:nobody": a service's name or client:NAME`},
		{"shed by an unknown client", `
[[action]]
at = "1s"
kind = "shed"
target = "nobody"
share = 0.5`, nil, `a.toml:32:1: action[0].target: unknown client "nobody"`},
		{"at before the run", `
[[action]]
at = "-1s"
set = { "service.api.workers" = 3 }`, nil, `a.toml:30:1: action[0].at: must be in [0s, 2400h0m0s], got -1s`},
		{"a key of another kind", `
[[action]]
at = "1s"
kind = "shed"
target = "users"
share = 0.5
state = "on"`, nil, `key "state" does not apply here`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("a.toml", []byte(actionBase+tt.actions))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := e.Model.Actions
			if len(got) != len(tt.want) {
				t.Fatalf("actions %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("action %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// operatorBase has a call with a breaker and a service with 3 instances,
// for the force_breaker and instances actions.
const operatorBase = `schema = 1
[experiment]
name = "ops"
duration = "60s"

[[client]]
name = "users"
target = "api"
rate = 100

[[service]]
name = "api"
instances = 3
workers = 10
  [[service.step]]
  call = "db"
  breaker = { minimum_calls = 20, failure_rate = 50 }

[[service]]
name = "db"
workers = 20
service_time = { dist = "exponential", mean = "5ms" }
`

func TestOperatorActions(t *testing.T) {
	tests := []struct {
		name, actions string
		want          topology.ActionConfig
		err           string
	}{
		{"force open", `
[[action]]
at = "10s"
kind = "force_breaker"
target = "db"
caller = "api"
state = "open"`, topology.ActionConfig{At: 10 * time.Second, Kind: topology.ActionForceBreaker, Service: "db", Caller: "api", Breaker: breaker.ForcedOpen}, ""},
		{"force closed, then auto", `
[[action]]
at = "10s"
kind = "force_breaker"
target = "db"
state = "auto"`, topology.ActionConfig{At: 10 * time.Second, Kind: topology.ActionForceBreaker, Service: "db", Breaker: breaker.Auto}, ""},
		{"a bad breaker state", `
[[action]]
at = "10s"
kind = "force_breaker"
target = "db"
state = "on"`, topology.ActionConfig{}, `a.toml:28:1: action[0].state: a forced breaker's state is "open", "closed" or "auto"`},
		{"no breaker from that caller", `
[[action]]
at = "10s"
kind = "force_breaker"
target = "api"
state = "open"`, topology.ActionConfig{}, `no call to "api" has a breaker`},
		{"instances", `
[[action]]
at = "10s"
kind = "instances"
target = "api"
count = 1`, topology.ActionConfig{At: 10 * time.Second, Kind: topology.ActionInstances, Service: "api", Int: 1}, ""},
		{"more instances than declared", `
[[action]]
at = "10s"
kind = "instances"
target = "api"
count = 4`, topology.ActionConfig{}, `a.toml:28:1: action[0].count: service "api" declares 3 instance(s): an action can take instances out of rotation and bring them back, not add instances`},
		{"instances of an unknown service", `
[[action]]
at = "10s"
kind = "instances"
target = "nosuch"
count = 1`, topology.ActionConfig{}, `action[0].target: unknown service "nosuch"`},
		{"instances without count", `
[[action]]
at = "10s"
kind = "instances"
target = "api"`, topology.ActionConfig{}, `missing required key "count"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("a.toml", []byte(operatorBase+tt.actions))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Model.Actions; len(got) != 1 || got[0] != tt.want {
				t.Fatalf("actions %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestVariantActions(t *testing.T) {
	src := actionBase + `
[[action]]
at = "10s"
set = { "service.api.workers" = 12 }

[[variant]]
name = "cut"
  [[variant.action]]
  at = "2m"
  set = { "client.users.retry.attempts" = 1 }

[[variant]]
name = "none"
unset = ["action"]

[[variant]]
name = "bad"
  [[variant.action]]
  at = "10m"
  set = { "client.users.retry.attempts" = 1 }
`
	_, err := Parse("v.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `v.toml:46:3: variant[2].action[0].at: variant "bad": action[1].at: the action is at 10m0s, not before the run ends (5m0s)`) {
		t.Fatalf("error %v, want the bad variant's action refused at its own line", err)
	}
	e, err := Parse("v.toml", []byte(strings.Split(src, "[[variant]]\nname = \"bad\"")[0]))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(e.Model.Actions); n != 1 {
		t.Errorf("base has %d actions, want 1", n)
	}
	if a := e.Variants[0].Model.Actions; len(a) != 2 || a[1].At != 2*time.Minute || a[1].Int != 1 {
		t.Errorf("variant cut: actions %+v, want the base's and its own", a)
	}
	if a := e.Variants[1].Model.Actions; len(a) != 0 {
		t.Errorf("variant none: actions %+v, want none", a)
	}
}

// TestMidRunPathsDocumented holds docs/experiment-format.md's allow-list
// of mid-run paths and the action kinds to the code's.
func TestMidRunPathsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/experiment-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, p := range MidRunPaths {
		if strings.Contains(p, ".operation.") {
			p = "service.NAME.operation.NAME."
		}
		if !strings.Contains(doc, "`"+p+"`") {
			t.Errorf("docs/experiment-format.md does not list the mid-run path %q", p)
		}
	}
	for _, k := range append(append([]string{}, ActionKinds...), ActionKindsUnsupported...) {
		if !strings.Contains(doc, "`\""+k+"\"`") && !strings.Contains(doc, "| `"+k+"` |") {
			t.Errorf("docs/experiment-format.md does not name the action kind %q", k)
		}
	}
}
