// Package compare runs every variant of an experiment over replications
// and sets them side by side: compare.json, compare.csv, compare.md, an
// optional timeseries.csv, and the figures (a timeline overlaying the
// variants, each variant's overview, a bar chart per headline metric).
// That is its one job. Replications share their seeds across variants
// (common random numbers), so differences are paired; the statistics are
// Student t intervals, paired differences and Wilson intervals for the
// locked-in probability (sim/analysis).
//
// It sits above sim/run (one run, its record and headline) and output
// (where outputs go), beside sweep, which it does not import, and below
// shard, which runs a comparison in parts through its Batch
// (TestLayering in sim/run).
package compare
