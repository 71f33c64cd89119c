// Package run executes an experiment and writes its outputs: summary.json,
// timeseries.csv and the plots. It sits above topology (the model),
// experiment (the file format) and report (the figures), and below the
// command line.
//
// Every output is deterministic: the same experiment and seed give the same
// bytes on any machine, and every file is written atomically.
package run
