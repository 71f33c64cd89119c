// Package promtext reads metric samples written as text into a
// telemetry.Set. It reads three formats, told apart by their content:
//
//   - OpenMetrics 1.0 text, recognised by its "# EOF" line. Timestamps
//     are seconds (fractions allowed); "# TYPE" and "# UNIT" lines
//     declare families; the _created samples of counters, histograms,
//     summaries and gauge histograms are dropped; exemplars (after " # ")
//     are ignored; nothing may follow "# EOF".
//   - The output of "promtool tsdb dump", recognised by a first sample
//     line that starts with "{": every label, __name__ included, inside
//     the braces, values quoted as Go strings, then the value and a
//     timestamp in milliseconds.
//   - Otherwise the Prometheus text exposition format 0.0.4: timestamps
//     are integer milliseconds; "# TYPE" lines declare families, "# HELP"
//     and other comments are skipped.
//
// A sample without a timestamp gets Options.DefaultTime: a file of
// such samples is one scrape. A series is named by the sample name as
// written (with any _total, _bucket, _sum or _count suffix) and its
// labels sorted by name; its points are sorted by time. Two samples of
// one series at the same time are an error (a *SyntaxError at the second
// one), not silently merged.
//
// Every malformed line is a *SyntaxError giving the file, line and
// column; a file with more series or points than Options allows is a
// *BudgetError. Parse never panics, whatever its input.
package promtext
