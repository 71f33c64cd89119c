// Package spans reads trace spans from the files tracing systems write:
// OTLP JSON (one document, or the collector's file exporter with one
// document a line), Zipkin v2 JSON (a list of spans), Jaeger JSON (the
// query API's {"data":[trace...]} answer, or one trace) and the span CSV
// of the TraStrainer datasets
// (TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,
// EndTimeUnixNano,Duration). Parse detects the format from the content.
//
// Every span comes back as a telemetry.Span with times in nanoseconds
// since the Unix epoch, trace and span IDs in lower case, and an Origin:
// the file, and the line for the formats that have one (CSV, OTLP JSON
// lines, and each element of a Zipkin list). A span whose format gives no
// start time (an unfinished Zipkin span) keeps Start = End = 0: it is
// untimed. A span that ends before it starts is rejected, not clamped:
// the file is wrong, and the error names where.
//
// Output is sorted by TraceID, then Start, then SpanID, so it never
// depends on the order the file held. Errors name the file and a
// position: line:column for JSON syntax and type errors, the JSON path of
// the offending span otherwise, and the line for CSV.
package spans
