package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

// Range is the set of values a numeric key accepts: [Lo, Hi], with either
// end open, and 0 besides when Zero is set (0 then means "off").
type Range struct {
	Lo, Hi         float64
	OpenLo, OpenHi bool
	Zero           bool
	Int            bool   // only integers
	Unit           string // what the number counts, for messages
}

// contains reports whether x is accepted.
func (g Range) contains(x float64) bool {
	if math.IsNaN(x) {
		return false
	}
	if g.Zero && x == 0 {
		return true
	}
	lo := x > g.Lo || !g.OpenLo && x == g.Lo
	hi := x < g.Hi || !g.OpenHi && x == g.Hi
	return lo && hi
}

// String writes the range as the documentation does: "in (0, 100]",
// "`0` or in [10^-6, 1000]", and for integers "1 to 2^20".
func (g Range) String() string {
	if g.Int && !g.OpenLo && !g.OpenHi && !g.Zero {
		return docNumber(g.Lo) + " to " + docNumber(g.Hi)
	}
	return strings.Replace(g.interval(), "0 or", "`0` or", 1)
}

// interval writes the range in interval notation, for messages.
func (g Range) interval() string {
	lb, rb := "[", "]"
	if g.OpenLo {
		lb = "("
	}
	if g.OpenHi {
		rb = ")"
	}
	s := fmt.Sprintf("in %s%s, %s%s", lb, docNumber(g.Lo), docNumber(g.Hi), rb)
	if g.Zero {
		s = "0 or " + s
	}
	return s
}

// docNumber writes large and small powers of ten as 10^k and integers
// plainly.
func docNumber(x float64) string {
	if x != 0 {
		k := math.Round(math.Log10(math.Abs(x)))
		if math.Pow(10, k) == math.Abs(x) && (k >= 4 || k <= -3) {
			return "10^" + strconv.Itoa(int(k))
		}
		if k2 := math.Log2(x); k2 == math.Round(k2) && k2 >= 16 {
			return "2^" + strconv.Itoa(int(k2))
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// numericKey is one documented numeric key: where
// docs/experiment-format.md states its range (in the section whose heading
// contains Section, the first line that starts with Row, or with
// "| `Key` |" when Row is empty, together with that line's continuation)
// and the range itself, which the reader checks.
type numericKey struct {
	Section, Key string
	Row          string // the documentation line's start, when the key has no row of its own
	Range
}

// numericKeys is the single source of the ranges of the numeric keys
// listed: the readers check these ranges, and TestRangesDocumented checks
// that the documentation states them. Treat it as constant.
var numericKeys = []numericKey{
	{"`[experiment]`", "seed", "", Range{Lo: 0, Hi: 1 << 62, Int: true, Unit: "seed"}},
	{"`[experiment]`", "replications", "", Range{Lo: 1, Hi: MaxReplications, Int: true, Unit: "runs per variant"}},
	{"`[experiment]`", "recovery_threshold", "", Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "share of the baseline goodput"}},
	{"`[experiment]`", "recovery_alpha", "", Range{Lo: 0, Hi: 0.1, OpenLo: true, Unit: "false-alarm level of the lock-in test"}},
	{"`[[client]]`", "rate", "", Range{Lo: 0, Hi: topology.MaxRate, OpenLo: true, Unit: "requests per second"}},
	{"`[[service]]`", "contention", "", Range{Lo: 0, Hi: 1e6, Unit: "slowdown per request in service"}},
	{"handlers", "probability", "", Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "share of requests that make the call"}},
	{"Call guards", "failure_rate", "", Range{Lo: 0, Hi: 100, OpenLo: true, Unit: "percent"}},
	{"Call guards", "slow_call_rate", "", Range{Lo: 0, Hi: 100, OpenLo: true, Unit: "percent"}},
	{"Call guards", "window_size", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "outcomes or seconds"}},
	{"Call guards", "minimum_calls", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "outcomes"}},
	{"Call guards", "half_open_calls", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "probes"}},
	{"Call guards", "ratio", "", Range{Lo: 1e-6, Hi: 1000, Zero: true, Unit: "tokens per success"}},
	{"Call guards", "capacity", "", Range{Lo: 1, Hi: 1e9, Unit: "tokens"}},
	{"Call guards", "min_retries_per_second", "", Range{Lo: 1e-6, Hi: 1e4, Zero: true, Unit: "retries per second"}},
	{"Call guards", "fail_rate", "", Range{Lo: 0, Hi: 1, Unit: "probability the fallback fails too"}},
	{"`[service.cache]`", "hit_ratio", "", Range{Lo: 0, Hi: 1, Unit: "share of lookups that hit when warm"}},
	{"`limit`", "backoff_ratio", "", Range{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true, Unit: "factor on a drop"}},
	{"`outlier`", "max_ejection_percent", "", Range{Lo: 0, Hi: 100, Int: true, Unit: "percent of the instances"}},
	{"`outlier`", "consecutive_5xx", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "consecutive failures"}},
	{"`shed`", "critical", "", Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}},
	{"`shed`", "normal", "", Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}},
	{"`shed`", "background", "", Range{Lo: 0, Hi: 1, OpenLo: true, Unit: "utilisation above which the class is shed"}},
	{"`limit`", "initial", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "requests"}},
	{"`limit`", "min", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "requests"}},
	{"`limit`", "max", "", Range{Lo: 1, Hi: 1 << 20, Int: true, Unit: "requests"}},
	{"`readiness`", "failure_threshold", "", Range{Lo: 1, Hi: 1000, Int: true, Unit: "consecutive probes"}},
	{"`readiness`", "success_threshold", "", Range{Lo: 1, Hi: 1000, Int: true, Unit: "consecutive probes"}},
	{"`[[client]]`", "users", "", Range{Lo: 1, Hi: topology.MaxUsers, Int: true, Unit: "users"}},
	{"`[[service]]`", "instances", "", Range{Lo: 1, Hi: topology.MaxInstances, Int: true, Unit: "instances"}},
	{"`[[service]]`", "workers", "", Range{Lo: 1, Hi: topology.MaxWorkers, Int: true, Unit: "workers per instance"}},
	{"`[[service]]`", "max_in_flight", "", Range{Lo: 1, Hi: topology.MaxWorkers, Int: true, Unit: "requests per instance"}},
	{"`[[service]]`", "queue_capacity", "", Range{Lo: 0, Hi: 1 << 31, Int: true, Unit: "requests per instance"}},
	{"Call policy", "attempts", "", Range{Lo: 1, Hi: retry.MaxMaxAttempts, Int: true, Unit: "attempts"}},
	{"`[service.cache]`", "keys", "", Range{Lo: 1, Hi: topology.MaxKeys, Int: true, Unit: "keys"}},
	{"`[[client]]`", "rate", "**Schedules.**", Range{Lo: 0, Hi: topology.MaxRate, Unit: "requests per second"}},
	{"Call guards", "max_concurrent", "", Range{Lo: 1, Hi: 1 << 24, Int: true, Unit: "calls in flight"}},
	{"Second flavours", "max_threads", rowPool, Range{Lo: 1, Hi: 1 << 24, Int: true, Unit: "threads"}},
	{"Second flavours", "queue", rowPool, Range{Lo: 0, Hi: 1 << 24, Int: true, Unit: "queued calls"}},
	{"Second flavours", "budget_percent", rowConcurrency, Range{Lo: 0, Hi: 100, Unit: "percent of the calls in flight"}},
	{"Second flavours", "min_retry_concurrency", rowConcurrency, Range{Lo: 0, Hi: 1 << 24, Int: true, Unit: "retries in flight"}},
	{"Distributions", "k", "| `erlang` |", Range{Lo: 1, Hi: 1000, Int: true, Unit: "exponential phases"}},
	{"Distributions", "scv", "| `hyperexponential` |", Range{Lo: 1, Hi: 1e6, Unit: "squared coefficient of variation"}},
	{"Distributions", "sigma", "| `lognormal` |", Range{Lo: 0, Hi: 10, OpenLo: true, Unit: "shape of the underlying normal"}},
	{"`[[fault]]`", "instance", "", Range{Lo: 0, Hi: topology.MaxInstances, Int: true, Unit: "instance index"}},
	{"`[[fault]]`", "multiply", "| `latency` |", Range{Lo: 0, Hi: 1e6, OpenLo: true, Unit: "factor on local work"}},
	{"`[[fault]]`", "rate", "| `error` |", Range{Lo: 0, Hi: 1, Unit: "probability a response fails"}},
	{"`[[fault]]`", "instances", "| `crash` |", Range{Lo: 1, Hi: topology.MaxInstances, Int: true, Unit: "instances"}},
	{"`[[fault]]`", "workers", "| `workers` |", Range{Lo: 1, Hi: topology.MaxWorkers, Int: true, Unit: "workers per instance"}},
	{"`[[fault]]`", "multiply", "| `load` |", Range{Lo: 0, Hi: 1e6, Unit: "factor on the client's rate"}},
}

// The documentation lines of the second flavours of the guards.
const (
	rowPool        = "- `bulkhead = { kind = \"pool\""
	rowConcurrency = "- `retry_budget = { kind = \"concurrency\""
)

// rangeOf returns the range of key in section, from its own row. A key
// missing from the table gets an empty range, which rejects every value
// (and fails the tests that load the documentation's examples).
func rangeOf(section, key string) Range {
	return rangeAt(section, "", key)
}

// rangeAt returns the range of key in section where the documentation
// states it on the line that starts with row ("" for the key's own row).
func rangeAt(section, row, key string) Range {
	for _, k := range numericKeys {
		if k.Section == section && k.Key == key && k.Row == row {
			return k.Range
		}
	}
	return Range{Lo: 1, Hi: 0, Unit: "undocumented key"}
}

// ranged reads a number (an integer when g.Int) within g.
func (t *table) ranged(k string, required bool, g Range) (float64, bool) {
	v, ok := t.get(k)
	if !ok {
		if required {
			t.r.errorf(t.path, "missing required key %q (a number, %s)", k, g.Unit)
		}
		return 0, false
	}
	var x float64
	switch n := v.(type) {
	case int64:
		x = float64(n)
	case float64:
		if g.Int {
			t.r.errorf(t.key(k), "expected an integer, got a float")
			return 0, false
		}
		x = n
	default:
		what := "a number"
		if g.Int {
			what = "an integer"
		}
		t.r.errorf(t.key(k), "expected %s (%s), got %s", what, g.Unit, typeName(v))
		return 0, false
	}
	if !g.contains(x) {
		t.r.errorf(t.key(k), "must be %s (%s), got %g", g.interval(), g.Unit, x)
		return 0, false
	}
	return x, true
}

// rangedNum and rangedInt apply one optional key to *dst.
func rangedNum(t *table, k string, g Range, dst *float64, ok *bool) {
	if v, good := t.ranged(k, false, g); good {
		*dst = v
	} else if t.has(k) {
		*ok = false
	}
}

func rangedInt(t *table, k string, g Range, dst *int, ok *bool) {
	if v, good := t.ranged(k, false, g); good {
		*dst = int(v)
	} else if t.has(k) {
		*ok = false
	}
}

// intIn reads an integer within the integer range g.
func (t *table) intIn(k string, required bool, g Range) (int64, bool) {
	return t.integer(k, required, int64(g.Lo), int64(g.Hi))
}
