// Package run executes an experiment and writes its outputs: summary.json,
// timeseries.csv and the plots. It also holds what every run reports to
// the rooms above it: its record (RunRecord), its headline metrics
// (Headline, Metrics), the options of a batch of runs (CompareOptions,
// ReplicationSeed) and a batch's units (Batch, Unit). It sits above topology (the model),
// experiment (the file format) and report (the figures), and below the
// command line.
//
// Its rooms, each a package with one job, are layered (TestLayering):
// runner, the one guarded way to run a model, and figures, one run's
// default figures, lie at the bottom; output, where outputs go, above
// them and below this package; compare (variants side by side) and sweep
// (a parameter grid) above it; shard, which runs a sweep or a comparison
// in parts and merges them, at the top.
//
// Each command (Execute, compare.Run, sweep.Run, and a shard merge's Batch)
// has one entry point and decides what it writes; an output.Sink decides
// where: a Folder, staged and committed whole, for the command line, or
// Memory, the same data-file bytes and the figures as SVG, for the
// WebAssembly playground (TestSinksSameRun, TestSinksSameCompare,
// TestSinksSameSweep).
//
// Every output is deterministic: the same experiment and seed give the same
// bytes on any machine, and every file is written atomically.
package run
