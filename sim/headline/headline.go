package headline

// Key names one headline metric. The zero Key is no metric.
type Key uint8

// The headline metrics, in the order the file format lists them (the
// order of experiment.SweepMetrics): the locked-in probability first, then
// the per-run metrics in report order (the order of run.Metrics).
const (
	_ Key = iota
	// LockedInProbability is the share of replications whose first
	// fault's verdict is locked_in or relapsed. It is not a per-run
	// number: it is computed over the replications.
	LockedInProbability
	// Goodput is full answers within the deadline per second, all clients.
	Goodput
	// GoodputShare is good / sent, all clients.
	GoodputShare
	// P99Latency is the users' 99th percentile latency of answered
	// requests.
	P99Latency
	// P99OutcomeLatency is the 99th percentile of the time to every user
	// request's outcome.
	P99OutcomeLatency
	// SuccessRatio is (good + degraded) / sent.
	SuccessRatio
	// InFlightAtEnd is the user requests still unanswered at the end.
	InFlightAtEnd
	// Amplification is the largest attempts per user request at any
	// service.
	Amplification
	// WastedWork is the worker time spent on requests nobody waited for.
	WastedWork
	// RecoveryTime is the first fault's recovery time.
	RecoveryTime

	numKeys
)

// Def is one row of the contract.
type Def struct {
	// Name is the metric's snake_case name, as experiment files, the
	// comparison's and the sweep's outputs write it.
	Name string
	// Unit is its unit, as compare.csv and compare.json write it.
	Unit string
	// Label is a short human label for tables and plots.
	Label string
	// HigherIsBetter orients the tables' markers and the sweep's finding.
	HigherIsBetter bool
	// Ratio says the metric lies in [0, 1] (every headline metric is >= 0).
	Ratio bool
	// AfterFault says the metric is judged after a [[fault]]: a run
	// without one has no value.
	AfterFault bool
	// PerRun says each run has its own value (a field of run.Headline);
	// false for the locked-in probability, computed over replications.
	PerRun bool
	// Summary is the metric's field in summary.json's "headline" object,
	// "" where summary.json does not state it there.
	Summary string
	// Wire is the metric's name in a partial result file's "headline"
	// (ressim-partial/1), "" for a metric not per run. It differs from
	// Name where the format was fixed before the names were: the format
	// is stable, so it keeps them.
	Wire string
}

// defs is the contract, by key.
var defs = [numKeys]Def{
	LockedInProbability: {Name: "locked_in_probability", Unit: "ratio", Label: "P(locked in)",
		Ratio: true, AfterFault: true},
	Goodput: {Name: "goodput", Unit: "req/s", Label: "goodput", HigherIsBetter: true,
		PerRun: true, Wire: "goodput"},
	GoodputShare: {Name: "goodput_share", Unit: "ratio", Label: "goodput share", HigherIsBetter: true,
		Ratio: true, PerRun: true, Summary: "goodput_share", Wire: "goodput_share"},
	P99Latency: {Name: "p99_latency", Unit: "s", Label: "p99 latency (answered)",
		PerRun: true, Summary: "p99_answered_latency_s", Wire: "p99"},
	P99OutcomeLatency: {Name: "p99_outcome_latency", Unit: "s", Label: "p99 latency (all outcomes)",
		PerRun: true, Summary: "p99_outcome_latency_s", Wire: "p99_outcome"},
	SuccessRatio: {Name: "success_ratio", Unit: "ratio", Label: "success ratio", HigherIsBetter: true,
		Ratio: true, PerRun: true, Wire: "success_ratio"},
	InFlightAtEnd: {Name: "in_flight_at_end", Unit: "requests", Label: "in flight at end",
		PerRun: true, Summary: "in_flight_at_end", Wire: "in_flight_at_end"},
	Amplification: {Name: "amplification", Unit: "attempts/request", Label: "amplification",
		PerRun: true, Wire: "amplification"},
	WastedWork: {Name: "wasted_work", Unit: "worker-s", Label: "wasted work",
		PerRun: true, Wire: "wasted_work"},
	RecoveryTime: {Name: "recovery_time", Unit: "s", Label: "recovery time",
		AfterFault: true, PerRun: true, Wire: "recovery"},
}

// Keys are every headline metric, in the contract's order.
func Keys() []Key {
	out := make([]Key, 0, numKeys-1)
	for k := Key(1); k < numKeys; k++ {
		out = append(out, k)
	}
	return out
}

// Valid reports whether k is a headline metric.
func (k Key) Valid() bool { return k > 0 && k < numKeys }

// Def is k's row of the contract; the zero Def for an invalid key.
func (k Key) Def() Def {
	if !k.Valid() {
		return Def{}
	}
	return defs[k]
}

// Name is k's snake_case name; "" for an invalid key.
func (k Key) Name() string { return k.Def().Name }

// String is k's name, so that a key prints as files write it.
func (k Key) String() string { return k.Name() }

// Unit is k's unit.
func (k Key) Unit() string { return k.Def().Unit }

// Label is k's human label.
func (k Key) Label() string { return k.Def().Label }

// Lookup returns the key named name (its snake_case Name).
func Lookup(name string) (Key, bool) {
	for _, k := range Keys() {
		if defs[k].Name == name && name != "" {
			return k, true
		}
	}
	return 0, false
}

// Select returns the keys whose row satisfies keep, in the contract's
// order.
func Select(keep func(Def) bool) []Key {
	var out []Key
	for _, k := range Keys() {
		if keep(defs[k]) {
			out = append(out, k)
		}
	}
	return out
}

// Names are keys' names, in their order.
func Names(keys []Key) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Name()
	}
	return out
}
