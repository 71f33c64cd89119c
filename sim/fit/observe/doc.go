// Package observe holds what a fit reads from a system's metrics, named
// by what it means rather than by what a metric is called: per service
// its requests, errors, latency histogram, busy workers and pool size;
// per client its requests and answers; per call edge its calls. A preset
// (package preset) fills Observations from a telemetry.Set by one naming
// convention (ressim's own, Istio's, OpenTelemetry's, ...); package fit
// estimates an experiment from them.
//
// Every quantity keeps the series it was summed from (Refs), so each
// fitted value can name its source. Values are plain data, safe to share
// once built.
package observe
