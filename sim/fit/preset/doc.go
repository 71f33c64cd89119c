// Package preset turns metric series named by a convention into
// observe.Observations: which series are a service's requests, errors,
// latency and busy workers, a client's requests and answers, an edge's
// calls and retries.
//
// A Preset is one convention. The built-in ones (All, in this order):
//
//   - ressim: ressim's own OpenMetrics export (ressim run --openmetrics).
//   - istio: istio_requests_total and istio_request_duration_milliseconds.
//   - otel-http: OpenTelemetry's HTTP server and client duration histograms.
//   - otel-rpc: OpenTelemetry's RPC server and client duration histograms.
//   - grpc-prometheus: go-grpc-prometheus' grpc_server_* and grpc_client_*.
//   - envoy: one Envoy's cluster stats (Envoy(local) names the service the
//     proxy fronts; ByName accepts "envoy:LOCAL").
//   - linkerd: Linkerd proxy metrics (Linkerd(local), "linkerd:LOCAL").
//
// Each preset's Doc says what it reads. Detect picks the preset whose
// characteristic series are present; FromMapping builds one from a small
// TOML file for any other naming.
//
// Every preset shares the same arithmetic. A counter is the sum of its
// matching series over the entity's label grouping, at the times all of
// them share, each series' resets undone first (after a drop the value
// before it is added to every later point, as PromQL's increase does). A
// gauge is the plain sum. A histogram is built from the family's
// _bucket{le=...}, _sum and _count series grouped by their labels other
// than le: buckets with the same bound are summed, bounds ascend and end
// at +Inf (taken from _count when no +Inf bucket is written), counts stay
// cumulative per bound, and bounds and sums are rescaled from
// milliseconds to seconds when the family is in milliseconds (by the
// preset's convention, a _milliseconds or _ms name, or a declared
// unit). Every quantity lists the series it was summed from, sorted.
// Output is sorted: services and clients by name, edges by caller, callee
// and operation; no map's order reaches it.
//
// A role (one quantity of a preset) matching more than MaxSeriesPerRole
// series is an error rather than a long sum.
//
// # Mapping files
//
// FromMapping reads a mapping of at most MaxMappingBytes:
//
//	doc = "our services' own metrics"   # optional
//
//	[service]
//	name_label = "service"                            # default "service"
//	requests = 'http_requests_total'                  # counter
//	handled = 'http_responses_total'                  # counter
//	errors = 'http_requests_total{code=~"5.."}'       # counter
//	latency = 'http_request_duration_seconds'         # histogram base name
//	latency_unit = "seconds"                          # or "milliseconds"; default by name
//	busy = 'inflight_requests'                        # gauge
//	workers = 'worker_pool_size'                      # gauge
//
//	[client]
//	name_label = "client"                             # default "client"
//	target_label = "target"                           # optional
//	requests = 'client_requests_total'
//	good = 'client_responses_total{outcome="good"}'
//	latency = 'client_request_duration_seconds'
//	latency_unit = "seconds"
//
//	[edge]
//	caller_label = "service"                          # required with [edge]
//	callee_label = "peer"                             # required with [edge]
//	operation_label = "method"                        # optional
//	calls = 'client_requests_total'
//	retries = 'client_retries_total'
//	latency = 'client_request_duration_seconds'
//	latency_unit = "seconds"
//
// Every value naming series is a selector: a metric name, optionally with
// label matchers in braces, l="v" (equal), l!="v", l=~"re" (an RE2
// regular expression matching the whole value) or l!~"re". A histogram's
// selector names its family without _bucket; its matchers apply to the
// _bucket, _sum and _count series alike. Series without the name label
// are skipped, with a note. Unknown keys, malformed selectors and bad
// regular expressions are errors naming the line.
package preset
