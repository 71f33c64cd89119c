// Package rare estimates the probability that a system locks in with no
// fault at all (or under the file's trigger) within a time: by plain
// replications (naive) or by fixed-effort multilevel splitting on the
// services' backlog, restarting trajectories by replay (re-running a
// trajectory's seed to its crossing and branching its random streams
// there, engine.Sim.Branch). It writes rare.json. That is its one job.
//
// It sits above sim/run (the replication seeds) and output (where outputs
// go), beside margin, which it does not import.
package rare
