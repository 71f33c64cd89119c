// Package topology is ressim's model of a request-serving system: clients
// that send requests, services made of instances with worker pools and
// queues, and the statistics a run produces.
//
// A Model is built from a Config (normally produced by package experiment
// from a TOML file), runs on one engine.Sim, and returns a Result. Building
// validates the configuration again (Config.Validate); no configuration
// makes the model panic.
//
// # Who checks ranges
//
// The range of every numeric setting is in one table, SettingRanges,
// keyed by Setting (the file's dotted key). Config.Validate checks the Go
// fields against it, and package experiment checks a file's keys against
// the same Range values, so a Config assembled in Go is refused what a
// file is refused, in the same words ("multiply must be in (0, 10^6]
// (factor on local work), got 0"). The one difference is where a Go
// field's zero (or -1) must mean "unset", because a Go field cannot be
// left out: Validate accepts that value and the field's doc says what it
// means ("0 means 1"), while a file, which can leave the key out, refuses
// it when written (instances = 0, probability = 0). The policy packages'
// own Validate keeps the rules across fields (a limit's min at most its
// max); where a policy package accepts more than the table, a Config
// still gets the table's range.
//
// # Semantics
//
// A client sends requests open-loop: arrivals form a Poisson process at the
// client's rate whether or not earlier requests were answered, and every
// latency is measured from the request's intended send time, so a stalled
// system cannot hide its latency (no coordinated omission).
//
// A service instance has Workers parallel servers and a FIFO queue. An
// arriving request starts service at once if a worker is free; otherwise it
// waits in the queue if the queue has room (QueueCapacity < 0 means
// unbounded, 0 means no waiting room), and is rejected if not. A worker
// serves one request at a time for a duration drawn from the service-time
// distribution.
//
// # Statistics
//
// The measurement window is [Warmup, Duration). Counts (arrivals,
// completions, rejections) count events inside the window. Waiting and
// sojourn statistics cover requests that arrived inside the window and
// completed before the end of the run; requests still in the system at the
// end are reported as in flight. Time averages (number in system, queue
// length, busy workers) integrate the exact piecewise-constant sample path
// over the window. The time series covers the whole run, warm-up included,
// in fixed intervals.
//
// # Where things are
//
// The configuration, by concept: config.go (the run, Validate),
// config_client.go, config_service.go, config_call.go, config_fault.go and
// config_guards.go (the policies' settings and their validation);
// settings.go is the range table and ranges.go its Range type, and
// config_guard_ranges.go checks the policies' numeric fields against it;
// balancer.go holds the one list of balancers. A request's life: client.go
// sends it, call.go and site.go make a call's attempts, service.go,
// admission.go, abandon.go and exec.go run an attempt at its callee,
// answer.go brings the answer back and retries, guards.go applies the
// call's guards; lifecycle.go has the phases of calls and attempts, their
// one transition function each, and the one release of what each holds.
// schedule.go is the only door to the engine's scheduling. Faults,
// outlier detection and probes: fault.go, watch.go; results: stats.go,
// result.go, series.go, verdict*.go, recovery.go; traces: trace.go.
//
// # Concurrency
//
// A Model is not safe for concurrent use; independent Models may run in
// parallel.
package topology
