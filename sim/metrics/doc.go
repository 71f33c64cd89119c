// Package metrics holds ressim's measurement primitives: a log-linear
// latency histogram with bounded relative error (Histogram), the
// time-weighted average of a piecewise-constant quantity (Level), and a
// columnar fixed-interval time series with a tidy CSV writer (TimeSeries,
// WriteCSV), and a histogram's counts at fixed bounds per interval
// (BucketSeries, for Prometheus histograms).
//
// The simulation model feeds these types plain numbers from the event
// loop's hot path: Histogram.Record, Histogram.RecordN, Level.Set,
// Level.Add and Column.Set are allocation-free and take a few nanoseconds
// (Histogram.Record allocates only when its bucket array first grows to
// cover a larger value). Plain counters need no type of their own: a
// uint64 field in the model does.
//
// # Time
//
// Instants are int64 nanoseconds since an arbitrary fixed origin, the
// simulator's virtual clock; nothing in this package reads the wall clock.
// Latencies recorded in a Histogram are int64 nanoseconds too, though the
// histogram works for any non-negative integer quantity.
//
// # Histogram
//
// Histogram is a log-linear (HDR-style) histogram, after Gil Tene's
// HdrHistogram (github.com/HdrHistogram/HdrHistogram, parameter
// numberOfSignificantValueDigits, a count of decimal digits) but
// parameterised in binary digits: with p precision bits (default
// DefaultPrecisionBits = 7) values below 2^(p+1) each have a bucket of their
// own and are exact; above that, each power-of-two range [2^k, 2^(k+1)) is
// split into 2^p buckets of equal width 2^(k-p). A quantile is reported as
// its bucket's midpoint, so its relative error is below 2^-(p+1) (0.39 %
// for p = 7; the proof is in the comment at the top of buckets.go). Count,
// Sum, Mean, Min and Max are exact (the sum is kept as a 128-bit integer,
// which cannot overflow). Merging histograms adds bucket counts, so merged
// quantiles equal those of a single histogram fed all the values:
// replications can be merged exactly. Snapshot and FromSnapshot carry the
// complete state through JSON.
//
// # Level
//
// Level integrates a piecewise-constant quantity (queue length, busy
// workers, requests in system) over virtual time, for Little's law and
// utilisation. The area is accumulated in double-double arithmetic (an
// FMA-split product added with TwoSum), so it stays within about 1e-24
// relative over 1e7 changes, and is exact for integer levels (see Level).
//
// # Count
//
// Count is Level's integer counterpart for counts of requests or workers:
// its area since instant 0 is an exact 128-bit integer, and a change costs
// about 1.5 ns against Level's 8 ns, which matters on the event loop's hot
// path. It keeps the sum of each change times its instant rather than
// integrating as it goes, so Inc and Dec, the changes by one, add or
// subtract an instant and multiply nothing (see count.go).
//
// # TimeSeries
//
// TimeSeries stores per-interval results: one time axis of interval
// [start, end) instants shared by columns identified by (entity, metric)
// and carrying a unit, in registration order. WriteCSV writes it in tidy
// (long) form with a fixed, documented number format so that the same
// series gives the same bytes on any machine.
//
// # Concurrency
//
// No type in this package is safe for concurrent use; the simulator is
// single-threaded. Replications running in parallel each own their values
// and merge them afterwards.
package metrics
