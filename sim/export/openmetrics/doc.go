// Package openmetrics writes a run's time series as OpenMetrics text with
// timestamps (or, Format PrometheusText, as Prometheus text 0.0.4 for
// promtool check metrics), so that a simulated incident can be loaded into Prometheus
// (promtool tsdb create-blocks-from openmetrics), graphed in Grafana and
// used to test alerting rules.
//
// Simulated time is mapped onto a start instant the caller chooses (no
// wall clock): interval i's values are stamped at Start + its end. Names
// follow Prometheus conventions: a ressim_ prefix, counters with _total,
// base units (seconds), labels client, service, caller, operation. Rates
// of the time series become counters (integrated over each interval:
// exact, since a rate is a count over the interval's length); levels,
// quantiles and states become gauges. Latency is exported as gauges of
// per-interval quantiles, not histograms: a run keeps one histogram per
// interval and emits its quantiles, not its buckets.
//
// The catalogue (Families, Mappings) is the single source of docs/
// observability.md's table; every topology.SeriesKey is either mapped or
// listed in NotExported, which the tests check.
package openmetrics
