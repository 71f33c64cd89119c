// Package margin finds how close to the edge a system runs: the smallest
// trigger (a fault's duration or size, or the offered load under the
// file's fault) at which the probability of ending locked in reaches a
// target, with a 95 % interval. It runs replications at trigger points it
// chooses (a coarse scan, then points placed by a logistic dose-response
// fit), fits that curve by maximum likelihood, and writes margin.json and
// margin.png. That is its one job.
//
// It sits above sim/run (the verdict of one run, the replication seeds)
// and output (where outputs go), beside compare and sweep, which it does
// not import (TestLayering in sim/run).
package margin
