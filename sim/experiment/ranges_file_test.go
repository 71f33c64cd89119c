package experiment

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
)

// everyRange is a valid file that writes every numeric key of numericKeys
// once, as {{ID:VALUE}}: ID is the key's topology.Setting, or "own.KEY"
// for a key of the file alone, and VALUE the valid value the base has.
const everyRange = `schema = 1
[experiment]
name = "ranges"
duration = "100s"
seed = {{own.seed:7}}
replications = {{own.replications:2}}
recovery_threshold = {{experiment.recovery_threshold:0.9}}
recovery_alpha = {{experiment.recovery_alpha:0.01}}

[[client]]
name = "open"
target = "front"
rate = {{client.rate:10}}
retry = { attempts = {{retry.attempts:3}} }

[[client]]
name = "sched"
target = "front"
schedule = [ { at = "0s", rate = {{client.schedule.rate:10}} } ]
hedge = { attempts = {{hedge.attempts:3}}, delay = "5ms", initial_requests = {{hedge.initial_requests:1}}, additional_chance = {{hedge.additional_chance:0.1}} }

[[client]]
name = "closed"
target = "front"
users = {{client.users:5}}
think_time = { dist = "constant", mean = "1s" }

[[service]]
name = "front"
workers = 10
[[service.step]]
work = { dist = "erlang", mean = "1ms", k = {{own.k:2}} }
[[service.step]]
call = "back"
probability = {{call.probability:0.5}}
bulkhead = { max_concurrent = {{bulkhead.max_concurrent:20}} }
breaker = { window_size = {{breaker.window_size:100}}, minimum_calls = {{breaker.minimum_calls:20}}, failure_rate = {{breaker.failure_rate:50}}, slow_call_rate = {{breaker.slow_call_rate:100}}, half_open_calls = {{breaker.half_open_calls:3}} }
retry_budget = { ratio = {{retry_budget.ratio:0.1}}, capacity = {{retry_budget.capacity:100}}, min_retries_per_second = {{retry_budget.min_retries_per_second:1}} }
fallback = { fail_rate = {{fallback.fail_rate:0.1}} }
[[service.step]]
choose = [ { call = "back", weight = {{call.weight:80}} }, { call = "slow", weight = 20 } ]
[[service.step]]
call = "slow"
bulkhead = { kind = "pool", max_threads = {{bulkhead.pool.max_threads:10}}, queue = {{bulkhead.pool.queue:50}} }
retry_budget = { kind = "concurrency", budget_percent = {{retry_budget.concurrency.budget_percent:20}}, min_retry_concurrency = {{retry_budget.concurrency.min_retry_concurrency:3}} }
[[service.step]]
call = "slow"
retry_budget = { kind = "aws_standard", capacity = {{retry_budget.aws_standard.capacity:500}}, retry_cost = {{retry_budget.aws_standard.retry_cost:5}}, timeout_cost = {{retry_budget.aws_standard.timeout_cost:10}}, success_refund = {{retry_budget.aws_standard.success_refund:1}} }
[[service.step]]
call = "slow"
retry_budget = { kind = "per_call_tokens", earn_per_call = {{retry_budget.per_call_tokens.earn_per_call:0.1}}, capacity = {{retry_budget.per_call_tokens.capacity:5}} }

[[service]]
name = "back"
instances = {{service.instances:2}}
workers = {{service.workers:10}}
queue_capacity = {{service.queue_capacity:100}}
contention = {{service.contention:0.01}}
service_time = { dist = "hyperexponential", mean = "1ms", scv = {{own.scv:4}} }
shed = { critical = {{shed.critical:1}}, normal = {{shed.normal:0.8}}, background = {{shed.background:0.5}} }
limit = { initial = {{limit.initial:20}}, min = {{limit.min:4}}, max = {{limit.max:400}}, backoff_ratio = {{limit.backoff_ratio:0.9}} }
outlier = { consecutive_5xx = {{outlier.consecutive_5xx:5}}, max_ejection_percent = {{outlier.max_ejection_percent:50}} }
readiness = { failure_threshold = {{readiness.failure_threshold:3}}, success_threshold = {{readiness.success_threshold:1}} }
liveness = { failure_threshold = {{liveness.failure_threshold:3}} }
[service.cache]
hit_ratio = {{service.cache.hit_ratio:0.8}}
keys = {{service.cache.keys:1000}}

[[service]]
name = "slow"
mode = "async"
max_in_flight = {{service.max_in_flight:100}}
service_time = { dist = "lognormal", mean = "1ms", sigma = {{own.sigma:1}} }

[[fault]]
kind = "latency"
target = "back"
instance = {{fault.instance:1}}
start = "10s"
end = "20s"
multiply = {{fault.latency.multiply:3}}

[[fault]]
kind = "load"
target = "open"
start = "10s"
end = "20s"
multiply = {{fault.load.multiply:2}}

[[fault]]
kind = "error"
target = "back"
start = "10s"
end = "20s"
rate = {{fault.error.rate:0.5}}
sticky = { by = "user", share = {{fault.sticky.share:0.1}}, users = {{fault.sticky.users:100}} }

[[fault]]
kind = "latency"
target = "back"
start = "10s"
end = "20s"
add = "1ms"
sticky = { by = "key", share = 0.5, keys = {{fault.sticky.keys:100}} }

[[fault]]
kind = "crash"
target = "back"
start = "10s"
end = "20s"
instances = {{fault.crash.instances:1}}

[[fault]]
kind = "workers"
target = "back"
start = "10s"
end = "20s"
workers = {{fault.workers.workers:5}}
`

var placeholder = regexp.MustCompile(`\{\{([a-z0-9_.]+):([^}]*)\}\}`)

// fileWith returns everyRange with id's value replaced by value (when id
// is not empty) and every other placeholder by its valid value, and the
// line (from 1) that writes id.
func fileWith(id, value string) (string, int) {
	line := 0
	for i, l := range strings.Split(everyRange, "\n") {
		if strings.Contains(l, "{{"+id+":") {
			line = i + 1
		}
	}
	return placeholder.ReplaceAllStringFunc(everyRange, func(m string) string {
		p := placeholder.FindStringSubmatch(m)
		if p[1] == id {
			return value
		}
		return p[2]
	}), line
}

// rangeID is the placeholder of a numeric key.
func rangeID(k numericKey) string {
	if k.Setting != "" {
		return string(k.Setting)
	}
	return "own." + k.Key
}

// probe is a value to write: its TOML text, and the number (n exactly,
// for an integer range whose ends float64 rounds, such as 2^62 + 1).
type probe struct {
	toml string
	x    float64
	n    int64
}

// fileOutside returns the nearest values outside g: the next integer for
// an integer range, the next float or the open end otherwise, and NaN.
// The file refuses them all, Go's absent values included.
func fileOutside(g topology.Range) []probe {
	if g.Int {
		var ps []probe
		for _, n := range []int64{int64(g.Lo) - 1, int64(g.Hi) + 1} {
			ps = append(ps, probe{strconv.FormatInt(n, 10), float64(n), n})
		}
		return ps
	}
	below, above := math.Nextafter(g.Lo, math.Inf(-1)), math.Nextafter(g.Hi, math.Inf(1))
	if g.OpenLo {
		below = g.Lo
	}
	if g.OpenHi {
		above = g.Hi
	}
	var ps []probe
	for _, x := range []float64{below, above} {
		ps = append(ps, probe{strconv.FormatFloat(x, 'g', -1, 64), x, 0})
	}
	return append(ps, probe{"nan", math.NaN(), 0})
}

func TestEveryRangeFileIsValid(t *testing.T) {
	data, _ := fileWith("", "")
	if _, err := Parse("ranges.toml", []byte(data)); err != nil {
		t.Fatal(err)
	}
	for _, k := range numericKeys {
		if n := strings.Count(everyRange, "{{"+rangeID(k)+":"); n != 1 {
			t.Errorf("%s is written %d times in everyRange, want 1", rangeID(k), n)
		}
	}
}

// TestFileRefusesOutsideRanges: for every numeric key, the file refuses
// the nearest values outside its range with an error at the key's line
// and path, saying what the range is; a key checked by the model's range
// table says it as Validate does (Range.Refusal).
func TestFileRefusesOutsideRanges(t *testing.T) {
	for _, k := range numericKeys {
		g := k.rng()
		for _, p := range fileOutside(g) {
			data, line := fileWith(rangeID(k), p.toml)
			_, err := Parse("ranges.toml", []byte(data))
			if e := errorAt(err, line, k.Key); e == nil {
				t.Errorf("%s = %s: no error at line %d, key %s: %v", rangeID(k), p.toml, line, k.Key, err)
			} else if !refusalSays(e.Msg, g, p) {
				t.Errorf("%s = %s: %q does not state the range", rangeID(k), p.toml, e.Msg)
			}
		}
	}
}

// errorAt returns the error of err at line whose key path ends with key.
func errorAt(err error, line int, key string) *Error {
	var list ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	for _, e := range list {
		if e.Line == line && (e.Key == key || strings.HasSuffix(e.Key, "."+key)) {
			return e
		}
	}
	return nil
}

// refusalSays reports whether msg is Range.Refusal's text, or, for the
// keys read as plain integers, "must be in [LO, HI], got X".
func refusalSays(msg string, g topology.Range, p probe) bool {
	if strings.Contains(msg, g.Refusal(p.x)) {
		return true
	}
	return g.Int && strings.Contains(msg, fmt.Sprintf("must be in [%d, %d], got %d", int64(g.Lo), int64(g.Hi), p.n))
}
