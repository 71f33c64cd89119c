// Package figures composes the default figures of one run: an overview
// (what the users got, the load each service saw, how full each service
// was, each breaker's states and each adaptive limit) and a timeline per
// service, with fault windows, warm-up and load surges shaded and the
// event log's transitions drawn as bands and markers. That is its one
// job: it turns a topology.Result into report.Figure values and neither
// runs anything nor decides where figures go.
//
// It sits below sim/run, which writes the figures, and above report (the
// renderer) and topology (the results); it must not import sim/run
// (TestLayering in sim/run).
package figures
