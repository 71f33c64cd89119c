package spans

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// csvColumns are the span CSV's columns, each with the header names it
// is known by (matched without regard to case).
var csvColumns = [...]struct {
	names    []string
	required bool
}{
	colTrace:     {[]string{"traceid", "trace_id"}, true},
	colSpan:      {[]string{"spanid", "span_id"}, true},
	colParent:    {[]string{"parentid", "parentspanid", "parent_id", "parent_span_id"}, true},
	colPod:       {[]string{"podname", "servicename", "service", "pod"}, true},
	colOperation: {[]string{"operationname", "operation", "name"}, false},
	colStart:     {[]string{"starttimeunixnano", "start_time_unix_nano"}, true},
	colEnd:       {[]string{"endtimeunixnano", "end_time_unix_nano"}, false},
	colDuration:  {[]string{"duration"}, false},
}

const (
	colTrace = iota
	colSpan
	colParent
	colPod
	colOperation
	colStart
	colEnd
	colDuration
	numCols
)

// csv reads the span CSV: a header line, then one span a line. End is
// EndTimeUnixNano, else Start plus Duration (in microseconds). A
// ParentID of "root" or "" marks a root.
func (p *parser) csv(body []byte) error {
	r := csv.NewReader(bytes.NewReader(body))
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("spans: %s: reading the CSV header: %w", p.name, err)
	}
	var idx [numCols]int
	for c := range idx {
		idx[c] = -1
		for i, h := range header {
			for _, n := range csvColumns[c].names {
				if strings.EqualFold(strings.TrimSpace(h), n) {
					idx[c] = i
				}
			}
		}
		if idx[c] < 0 && csvColumns[c].required {
			return fmt.Errorf("spans: %s:1: not a span file: the header %q has no %s column (expected OTLP, Zipkin or Jaeger JSON, or a span CSV with TraceID,SpanID,ParentID,PodName,StartTimeUnixNano)", p.name, truncate(strings.Join(header, ","), 120), csvColumns[c].names[0])
		}
	}
	if idx[colEnd] < 0 && idx[colDuration] < 0 {
		return fmt.Errorf("spans: %s:1: the span CSV needs an EndTimeUnixNano or a Duration column", p.name)
	}
	r.FieldsPerRecord = len(header)
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("spans: %s: %w", p.name, err)
		}
		line, _ := r.FieldPos(0)
		s, err := csvToSpan(rec, &idx)
		if err == nil {
			s.Origin = telemetry.Origin{File: p.name, Line: line}
			err = p.add(s)
		}
		if err != nil {
			return fmt.Errorf("spans: %s:%d: %w", p.name, line, err)
		}
	}
}

func csvToSpan(rec []string, idx *[numCols]int) (telemetry.Span, error) {
	get := func(c int) string {
		if idx[c] < 0 {
			return ""
		}
		return strings.TrimSpace(rec[idx[c]])
	}
	s := telemetry.Span{
		TraceID:   normID(get(colTrace)),
		SpanID:    normID(get(colSpan)),
		Operation: get(colOperation),
		Service:   PodService(get(colPod)),
	}
	if s.TraceID == "" || s.SpanID == "" {
		return s, errors.New("no TraceID or SpanID")
	}
	if parent := get(colParent); !strings.EqualFold(parent, "root") {
		s.ParentID = normID(parent)
	}
	var err error
	if s.Start, err = strconv.ParseInt(get(colStart), 10, 64); err != nil {
		return s, fmt.Errorf("StartTimeUnixNano %q is not an integer", get(colStart))
	}
	if e := get(colEnd); idx[colEnd] >= 0 && e != "" {
		if s.End, err = strconv.ParseInt(e, 10, 64); err != nil {
			return s, fmt.Errorf("EndTimeUnixNano %q is not an integer", e)
		}
		return s, nil
	}
	us, err := strconv.ParseInt(get(colDuration), 10, 64)
	if err != nil {
		return s, fmt.Errorf("column Duration: %q is not an integer (microseconds)", get(colDuration))
	}
	d, err := microsToNanos(us)
	if err != nil {
		return s, fmt.Errorf("column Duration: %w", err)
	}
	s.End, err = addNanos(s.Start, d)
	return s, err
}

// PodService returns the service a Kubernetes pod name belongs to: the
// name less a Deployment's "-<replica-set hash>-<5 characters>" suffix
// ("frontend-579b9bff58-t2dbm" is "frontend"). Another name comes back
// as it is.
func PodService(pod string) string {
	parts := strings.Split(pod, "-")
	n := len(parts)
	if n < 3 {
		return pod
	}
	hash, id := parts[n-2], parts[n-1]
	if len(id) == 5 && lowerAlnum(id) && len(hash) >= 6 && len(hash) <= 10 && lowerAlnum(hash) && hasDigit(hash+id) {
		return strings.Join(parts[:n-2], "-")
	}
	return pod
}

func lowerAlnum(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// truncate shortens s to at most n bytes for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
