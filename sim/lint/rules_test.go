package lint

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// two-service skeleton: CLIENT, FRONT (front's extra keys), CALL (the
// call step's extra keys), BACK (back's extra keys), EXP ([experiment]).
const skeleton = `schema = 1
[experiment]
name = "t"
duration = "10s"
EXP
[[client]]
name = "users"
target = "front"
rate = 10
CLIENT
[[service]]
name = "front"
workers = 10
FRONT
  [[service.step]]
  call = "back"
CALL
[[service]]
name = "back"
workers = 10
service_time = { dist = "exponential", mean = "1ms" }
BACK
`

func build(exp, client, front, call, back string) string {
	r := strings.NewReplacer("EXP", exp, "CLIENT", client, "FRONT", front, "CALL", call, "BACK", back)
	return r.Replace(skeleton)
}

// clean is the skeleton with every rule satisfied.
var clean = [5]string{
	`propagate_deadlines = true`,
	`deadline = "1s"`,
	`queue_capacity = 0`,
	`timeout = "100ms"`,
	`queue_capacity = 0`,
}

func lintSrc(t *testing.T, src string) *Report {
	t.Helper()
	e, err := experiment.Parse("t.toml", []byte(src))
	if err != nil {
		t.Fatalf("invalid test file: %v\n%s", err, src)
	}
	r, err := Check(e, []byte(src), "base")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rules(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Rule)
	}
	return out
}

// TestRules is a step table: changes to a clean file (slot 0 EXP, 1
// CLIENT, 2 FRONT, 3 CALL, 4 BACK), and the rules they must raise, in
// position order, and no others.
func TestRules(t *testing.T) {
	const budgeted = `timeout = "100ms"
  retry = { attempts = 3 }
  retry_budget = { ratio = 0.1 }`
	const unbudgeted = `timeout = "100ms"
  retry = { attempts = 3 }`
	const hedgeOK = `timeout = "100ms"
  hedge = { attempts = 2, delay = "10ms" }
  retry_budget = { ratio = 0.1 }`
	const cancels = `queue_capacity = 0
cancellation = "continuous"`
	cases := []struct {
		name string
		set  map[int]string
		want string
	}{
		{"clean", nil, ""},
		{"no timeout", map[int]string{3: `critical = true`}, "RS001"},
		{"timeout beyond deadline, propagated", map[int]string{3: `timeout = "5s"`}, ""},
		{"timeout beyond deadline", map[int]string{0: ``, 3: `timeout = "5s"`}, "RS003 RS002"},
		{"no propagation", map[int]string{0: ``}, "RS003"},
		{"no jitter, no budget", map[int]string{3: `timeout = "100ms"
  retry = { attempts = 3, backoff = "exponential", base = "1ms", cap = "10ms" }`}, "RS005 RS006"},
		{"budgeted jittered retry", map[int]string{3: budgeted}, ""},
		{"non-idempotent retry", map[int]string{3: `timeout = "100ms"
  retry = { attempts = 2, idempotent = false }
  retry_budget = { ratio = 0.1 }`}, "RS008"},
		// issue 24: retry budgets hold each layer to 1 + ratio in steady
		// state, so two budgeted layers do not multiply the load
		{"two budgeted layers", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }
retry_budget = { ratio = 0.1 }`, 3: budgeted}, ""},
		{"two layers", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }`, 3: unbudgeted}, "RS006 RS006 RS007"},
		{"two layers, one budgeted", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }`, 3: budgeted}, "RS006"},
		{"non-critical long", map[int]string{3: `timeout = "900ms"
  critical = false
  fallback = { level = "generic" }`}, "RS004"},
		{"non-critical no fallback", map[int]string{3: `timeout = "100ms"
  critical = false`}, "RS016"},
		// issue 24: a breaker without a fallback only fails faster (section 4)
		{"critical breaker, no fallback", map[int]string{3: `timeout = "100ms"
  breaker = {}`}, "RS017"},
		{"critical breaker with a fallback", map[int]string{3: `timeout = "100ms"
  breaker = {}
  fallback = { level = "generic" }`}, ""},
		{"wide half-open, small sample", map[int]string{3: `timeout = "100ms"
  breaker = { minimum_calls = 2, half_open_calls = 50 }`}, "RS009 RS010 RS017"},
		// issue 26: a breaker for retries only never refuses a first
		// attempt (no RS017), has no half-open nor minimum sample (no
		// RS009, RS010) and stops retries on a failing dependency as a
		// budget does (no RS006, no RS007)
		{"retry-only breaker", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }
breaker = { placement = "retries_only" }`, 3: `timeout = "100ms"
  retry = { attempts = 3 }
  breaker = { placement = "retries_only", window_duration = "200ms", failure_rate = 10 }`}, ""},
		{"unbounded queue", map[int]string{4: ``}, "RS012"},
		{"bounded queue, no shedding", map[int]string{4: `queue_capacity = 10`}, "RS013"},
		{"bounded queue with codel", map[int]string{4: `queue_capacity = 10
codel = {}`}, ""},
		{"readiness trap", map[int]string{2: `queue_capacity = 0
readiness = { period = "1s", depends_on = ["back"] }`, 3: `timeout = "100ms"
  critical = false
  fallback = { level = "generic" }`}, "RS014"},
		{"readiness on a critical dependency", map[int]string{2: `queue_capacity = 0
readiness = { period = "1s", depends_on = ["back"] }`}, ""},
		{"liveness under load", map[int]string{4: `queue_capacity = 10
liveness = { period = "1s" }`}, "RS013 RS015"},
		{"liveness with codel", map[int]string{4: `queue_capacity = 10
codel = {}
liveness = { period = "1s" }`}, ""},
		// hedges: a delayed, budgeted hedge to a service that cancels is
		// clean; each of the three mistakes raises its rule
		{"hedge, delayed, budgeted, cancelled", map[int]string{3: hedgeOK, 4: cancels}, ""},
		{"hedge to an at_step service", map[int]string{3: hedgeOK, 4: `queue_capacity = 0
cancellation = "at_step"`}, ""},
		{"hedge with delay 0", map[int]string{3: `timeout = "100ms"
  hedge = { attempts = 2 }
  retry_budget = { ratio = 0.1 }`, 4: cancels}, "RS018"},
		{"hedge with initial_requests 2", map[int]string{3: `timeout = "100ms"
  hedge = { attempts = 3, delay = "10ms", initial_requests = 2 }
  retry_budget = { ratio = 0.1 }`, 4: cancels}, "RS018"},
		{"hedge without a budget", map[int]string{3: `timeout = "100ms"
  hedge = { attempts = 2, delay = "10ms" }`, 4: cancels}, "RS019"},
		{"hedge with a concurrency budget", map[int]string{3: `timeout = "100ms"
  hedge = { attempts = 2, delay = "10ms" }
  retry_budget = { kind = "concurrency", budget_percent = 20 }`, 4: cancels}, "RS019"},
		{"hedge to a service that never cancels", map[int]string{3: hedgeOK}, "RS020"},
		// a hedged layer multiplies as a retrying one does (RS007)
		{"retry above an unbudgeted hedge", map[int]string{1: `deadline = "1s"
retry = { attempts = 2 }`, 3: `timeout = "100ms"
  hedge = { attempts = 2, delay = "10ms" }`, 4: cancels}, "RS006 RS007 RS019"},
		{"hedges at two layers", map[int]string{1: `deadline = "1s"
hedge = { attempts = 2, delay = "10ms" }`, 2: `queue_capacity = 0
cancellation = "continuous"`, 3: `timeout = "100ms"
  hedge = { attempts = 2, delay = "10ms" }`, 4: cancels}, "RS019 RS007 RS019"},
		{"budgeted hedge above a retry", map[int]string{1: `deadline = "1s"
hedge = { attempts = 2, delay = "10ms" }
retry_budget = { ratio = 0.1 }`, 2: `queue_capacity = 0
cancellation = "continuous"`, 3: unbudgeted}, "RS006"},
	}
	for _, c := range cases {
		parts := clean
		for k, v := range c.set {
			parts[k] = v
		}
		r := lintSrc(t, build(parts[0], parts[1], parts[2], parts[3], parts[4]))
		if got := strings.Join(rules(r), " "); got != c.want {
			t.Errorf("%s: rules %q, want %q; findings %+v", c.name, got, c.want, r.Findings)
		}
	}
}

// TestMapToSources: a finding on a line with an importer comment moves
// to the source position; one without keeps its own.
func TestMapToSources(t *testing.T) {
	gen := []byte("a = 1\n  retry.attempts = 3 # app.yml:44:7 resilience4j.retry.configs.default.maxAttempts\n")
	r := &Report{Findings: []Finding{
		{Rule: "RS006", File: "gen.toml", Line: 2, Col: 3},
		{Rule: "RS012", File: "gen.toml", Line: 1, Col: 1},
	}}
	MapToSources(r, gen)
	got := r.Findings // sorted: app.yml before gen.toml
	got[0], got[1] = got[1], got[0]
	if got[1].File != "app.yml" || got[1].Line != 44 || got[1].Col != 7 || got[1].Key != "resilience4j.retry.configs.default.maxAttempts" {
		t.Errorf("mapped finding %+v", got[1])
	}
	if got[0].File != "gen.toml" || got[0].Line != 1 {
		t.Errorf("unmapped finding %+v", got[0])
	}
}
