// Package headline is the headline metric contract: the numbers a
// comparison, a sweep and an expectation judge a design by (goodput, p99
// latency, the recovery time, the probability of staying locked in, ...).
//
// Every headline metric is one Key, and the table behind Keys gives it
// everything the readers need: its snake_case name (what an experiment
// file's [sweep] metric and [[expect]] metric say, and the name in
// compare.json, compare.csv, sweep.json), its unit, a short human label
// for tables and plots, whether higher is better, whether it is a ratio
// in [0, 1], whether it is judged only after a fault, its field in
// summary.json's headline (where it has one) and its name in a partial
// result file (ressim-partial/1, a stable format whose older names are
// kept here and nowhere else).
//
// The readers derive their lists from this table rather than keeping
// their own: run.Metrics (with run's getters on run.Headline),
// experiment.SweepMetrics and ExpectMetrics and the checks on them, the
// partial file's wire names, the comparison's and the sweep's tables.
// Adding a headline metric is then one row here, one getter in run, and
// the docs; the contract tests (here, in sim/run and in sim/experiment)
// fail until all are done.
//
// The package is a leaf: it imports nothing of ressim, so that both
// sim/experiment (which reads the file format) and sim/run (which
// computes the metrics) can import it.
package headline
