// Package telemetry holds a system's own telemetry as ressim reads it:
// metric time series (Series, Set) and trace spans (Span), whatever the
// file they came from. The readers live in sub-packages: promtext
// (Prometheus text format, OpenMetrics, promtool tsdb dump), promapi
// (a Prometheus query_range answer, from a file or a server) and spans
// (OTLP JSON, Zipkin v2 and Jaeger JSON, span CSV). Package fit turns
// these into an experiment.
//
// Every value here is plain data: safe to share between goroutines once
// built, never mutated by its readers. Every series and span keeps where
// it came from (file and line), so a fitted value can name its source.
package telemetry
