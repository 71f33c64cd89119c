// Package alerts evaluates Prometheus alerting and recording rules
// against a simulated incident with Prometheus' own rule engine, by
// running promtool test rules (Debian's prometheus package, 2.42 or later)
// on a unit-test file that holds the run's OpenMetrics series as
// input_series, and reports for every alert and every fault when it went
// pending and firing relative to the fault, and when it resolved after
// the fault ended; alerts that fire in the same run without its faults are
// false alarms.
//
// Why promtool and not the promql and rules packages of
// github.com/prometheus/prometheus: the rule engine is the same code
// either way (promtool test rules runs rules.Group.Eval over a test
// storage), but the Go module pulls in hundreds of packages (Kubernetes,
// cloud service discovery, gRPC) into ressim's build and CI, for one
// command; promtool is one Debian package, already needed to check the
// export, and the file ressim generates is the one a team runs in its own
// CI without ressim (--promtool-test). The cost is parsing promtool's
// failure report (see parse.go), pinned by tests against promtool 2.42.
//
// The playground, compiled to WebAssembly, cannot run promtool: its game
// day mode evaluates the rules with package promql, a subset of PromQL in
// Go (docs/observability.md, "The page's PromQL subset"). promtool stays
// the reference: TestSubsetMatchesPromtool and
// TestSubsetCoverageMatchesPromtool require the subset's episodes and
// recorded values to equal promtool's on the same series.
package alerts
