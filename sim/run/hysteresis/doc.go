// Package hysteresis draws a system's hysteresis loop: the offered load
// of one open-loop client ramped up and then down again (a linear rate
// schedule), run once through the guarded runner, and its goodput drawn
// against that load, the up branch and the down branch apart. Where the
// two branches differ, the system has two stable states at the same load
// (healthy on the way up, locked in on the way down): the bistable band,
// which it finds and writes to hysteresis.json with every interval's
// point, beside hysteresis.png. That is its one job.
//
// It sits above sim/run (the run's time series) and output, and reads
// each client's capacity from sweep (ClientCapacity) for the figure's
// reference lines, so it is on the level above the rooms it reads
// (TestLayering in sim/run).
package hysteresis
