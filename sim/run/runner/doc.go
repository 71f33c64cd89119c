// Package runner is the one guarded way to run a model, and what a run
// costs. Every ressim command that simulates (run, compare, sweep, merge,
// lint --simulate, alerts, the playground) goes through it:
//
//  1. Estimate computes, from the configuration alone and with topology's
//     defaults applied, what one run costs in events, series points,
//     output bytes and memory;
//  2. Budget.Check refuses a command's whole plan (every model with the
//     number of times it runs) before anything runs, naming the keys that
//     drive the cost and the flag that raises the limit;
//  3. a Meter, shared by the command's runs, stops them while they run
//     when the events, the heap or the wall time go over the budget, or
//     the context is cancelled;
//  4. Meter.Run builds the model and runs it under the Meter.
//
// Nothing else in ressim calls topology.New or Model.Run outside tests
// (TestOnlyTheRunnerRuns). Wall time and heap size are read only to stop
// runs: they never change a finished run's results, so outputs stay
// deterministic.
package runner
