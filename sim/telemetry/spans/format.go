package spans

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/telemetry"
)

// Format names a span file format.
type Format string

// The formats Parse detects.
const (
	OTLP   Format = "otlp"
	Zipkin Format = "zipkin"
	Jaeger Format = "jaeger"
	CSV    Format = "csv"
)

// The limits an Options left at zero gets.
const (
	// DefaultMaxBytes is the largest input read, in bytes (256 MiB).
	DefaultMaxBytes int64 = 256 << 20
	// DefaultMaxSpans is the most spans one input may hold.
	DefaultMaxSpans = 2_000_000
)

// Options bounds what Parse accepts. A zero field takes its default.
type Options struct {
	// MaxBytes is the largest input accepted, in bytes.
	MaxBytes int64
	// MaxSpans is the most spans accepted from one input.
	MaxSpans int
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxSpans <= 0 {
		o.MaxSpans = DefaultMaxSpans
	}
	return o
}

// ReadFile reads path ("-" for standard input) with input.ReadFile, at
// most opt.MaxBytes bytes, and parses it as Parse does.
func ReadFile(path string, opt Options) ([]telemetry.Span, Format, error) {
	opt = opt.withDefaults()
	data, err := input.ReadFile(path, opt.MaxBytes)
	if err != nil {
		return nil, "", fmt.Errorf("spans: %w", err)
	}
	name := path
	if path == input.Stdin {
		name = input.StdinName
	}
	return Parse(name, data, opt)
}

// Parse reads the spans in data, named name in errors and origins,
// detecting the format from the content: a JSON array is Zipkin v2, a
// JSON object with "resourceSpans" OTLP, one with "data" (or "spans" and
// "processes") Jaeger, and text whose first line names TraceID and SpanID
// columns the span CSV. The spans come back sorted by TraceID, Start,
// SpanID.
func Parse(name string, data []byte, opt Options) ([]telemetry.Span, Format, error) {
	opt = opt.withDefaults()
	if int64(len(data)) > opt.MaxBytes {
		return nil, "", fmt.Errorf("spans: %w", &input.SizeError{Name: name, Limit: opt.MaxBytes})
	}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	skip := len(data) - len(body)
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, "", fmt.Errorf("spans: %s: no spans: the input is empty", name)
	}
	p := &parser{name: name, data: data, max: opt.MaxSpans}
	var f Format
	var err error
	switch trimmed[0] {
	case '[':
		f, err = Zipkin, p.zipkin(skip)
	case '{':
		f, err = p.object(skip)
	default:
		f, err = CSV, p.csv(body)
	}
	if err != nil {
		return nil, f, err
	}
	sortSpans(p.out)
	return p.out, f, nil
}

// parser collects the spans of one input.
type parser struct {
	name string
	data []byte
	max  int
	out  []telemetry.Span
}

// add appends s, refusing more than p.max spans.
func (p *parser) add(s telemetry.Span) error {
	if len(p.out) >= p.max {
		return fmt.Errorf("spans: %s holds more than %d spans (raise the span limit to read it)", p.name, p.max)
	}
	if s.End < s.Start {
		return fmt.Errorf("span %s ends %d ns before it starts", s.SpanID, s.Start-s.End)
	}
	p.out = append(p.out, s)
	return nil
}

// object tells OTLP from Jaeger by the first document's keys.
func (p *parser) object(skip int) (Format, error) {
	keys, err := topKeys(p.data[skip:])
	if err != nil {
		return "", p.jsonErr(err, skip)
	}
	switch {
	case keys["resourceSpans"]:
		return OTLP, p.otlp(skip)
	case keys["data"] || (keys["spans"] && keys["processes"]):
		return Jaeger, p.jaeger(skip)
	case keys["resourceMetrics"] || keys["resourceLogs"]:
		return "", fmt.Errorf("spans: %s is OTLP metrics or logs, not traces (no resourceSpans)", p.name)
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	return "", fmt.Errorf("spans: %s: a JSON object with keys %s is neither OTLP (resourceSpans) nor Jaeger (data)", p.name, strings.Join(names, ", "))
}

// normID lower-cases a hex ID and maps an all-zero one to "".
func normID(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if strings.Trim(id, "0") == "" {
		return ""
	}
	return id
}

// sortSpans orders spans by TraceID, Start, SpanID, then by what else
// tells two apart (a Zipkin shared span's client and server halves).
func sortSpans(s []telemetry.Span) {
	sort.SliceStable(s, func(i, j int) bool {
		a, b := &s[i], &s[j]
		if a.TraceID != b.TraceID {
			return a.TraceID < b.TraceID
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.SpanID != b.SpanID {
			return a.SpanID < b.SpanID
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Service != b.Service {
			return a.Service < b.Service
		}
		return a.Origin.Line < b.Origin.Line
	})
}
