// Package sweep runs an experiment's [sweep] grid: one or two axes of
// parameter values, every cell for every swept variant over
// replications, and writes sweep.csv, sweep.json, sweep.md and the
// figures (a phase diagram per variant over two axes, or the metric
// against one axis with a line per variant, with the capacity marked
// where the axis sets a client's rate). That is its one job. Each
// finished run's record waits in a spool in the staging folder, so a
// sweep's memory grows with its cells, not with cells x replications.
//
// It sits above sim/run and output, beside compare, which it does not
// import, and below shard, which runs a sweep in parts through its Batch
// (TestLayering in sim/run).
package sweep
