// Package output is where a command's outputs go: the Sink interface and
// its two implementations, Folder (a folder staged and committed whole,
// for the command line) and Memory (the same data-file bytes and the
// figures as SVG, for the WebAssembly playground), and Figure, a figure
// that either can draw. That is its one job: it decides where outputs go,
// never what they are; the command (sim/run's Execute, compare's Run,
// sweep's Run, shard's merge) decides that and in what order.
//
// It sits at the bottom of sim/run's rooms, beside runner and figures,
// and must not import the rooms above it (TestLayering in sim/run).
package output
