// Package fit builds an experiment from a system's own telemetry: the
// load it takes, the latencies its services show and the calls they make
// (`ressim fit`, docs/fit.md).
//
// The readers (sim/telemetry/...) turn files into series and spans; a
// preset (sim/fit/preset) names the series by meaning (observe); the
// estimator here turns the observations into a Model:
//
//   - the window: the steady part of the total request rate, by MSER-5
//     (sim/fit/steady), or the user's;
//   - rates: counter increases over the window, divided by its length;
//   - per service, the time a request holds a worker by Little's law on
//     the pool (busy workers / throughput), less the time it waits on
//     its calls (fan-out times the callee's mean latency): the mean of
//     its own work. This is exact in the mean whatever the distributions;
//   - the shape of the own work by binned maximum likelihood on the
//     service's latency histogram (sim/fit/binned), the queue wait
//     (M/M/c at the observed pool and load) and the calls (the callees'
//     observed latency histograms, fan-out times) taken as known parts
//     of the latency, the family chosen by AIC;
//   - the pool size from a pool-size series, else a placeholder;
//   - fan-out as calls over the caller's throughput; traces, when given,
//     replace it and the own time with what the spans show.
//
// Write renders a Model as an experiment file whose every fitted value
// names its series, window and fit quality; Into puts it onto an
// existing experiment; WriteText, WriteJSON and Figure report the fit.
// Nothing here reads a clock or a global random source: the same inputs
// give the same bytes.
package fit
