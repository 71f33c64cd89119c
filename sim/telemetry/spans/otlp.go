package spans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// The OTLP JSON shapes read here (a subset of the trace protocol).
type (
	otlpDoc struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []otlpAttr `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
			// InstrumentationLibrarySpans is scopeSpans' name before
			// OTLP 0.15.
			LibrarySpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"instrumentationLibrarySpans"`
		} `json:"resourceSpans"`
	}
	otlpSpan struct {
		TraceID      string          `json:"traceId"`
		SpanID       string          `json:"spanId"`
		ParentSpanID string          `json:"parentSpanId"`
		Name         string          `json:"name"`
		Kind         json.RawMessage `json:"kind"`
		Start        jsonInt         `json:"startTimeUnixNano"`
		End          jsonInt         `json:"endTimeUnixNano"`
		Attributes   []otlpAttr      `json:"attributes"`
		Status       struct {
			Code json.RawMessage `json:"code"`
		} `json:"status"`
	}
	otlpAttr struct {
		Key   string `json:"key"`
		Value struct {
			String *string `json:"stringValue"`
		} `json:"value"`
	}
)

// attr returns the string value of the attribute key, or "".
func attr(as []otlpAttr, key string) string {
	for _, a := range as {
		if a.Key == key && a.Value.String != nil {
			return *a.Value.String
		}
	}
	return ""
}

// otlp reads one OTLP document, or several one a line (the collector's
// file exporter), from byte skip of p.data.
func (p *parser) otlp(skip int) error {
	body := p.data[skip:]
	var doc otlpDoc
	err := json.Unmarshal(body, &doc)
	if err == nil {
		return p.otlpDoc(&doc, 0)
	}
	first := body
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		first = body[:i]
	}
	if !json.Valid(first) {
		return p.jsonErr(err, skip)
	}
	// Several documents, one a line (the collector's file exporter).
	off := skip
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line = body[:i+1]
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var doc otlpDoc
			if err := json.Unmarshal(line, &doc); err != nil {
				return p.jsonErr(err, off)
			}
			if err := p.otlpDoc(&doc, lineAt(p.data, off)); err != nil {
				return err
			}
		}
		off += len(line)
		body = body[len(line):]
	}
	return nil
}

// otlpDoc adds the spans of one document, read at line (0 for a whole
// file).
func (p *parser) otlpDoc(doc *otlpDoc, line int) error {
	where := p.name
	if line > 0 {
		where = fmt.Sprintf("%s:%d", p.name, line)
	}
	for i, rs := range doc.ResourceSpans {
		svc := attr(rs.Resource.Attributes, "service.name")
		groups := append(rs.ScopeSpans, rs.LibrarySpans...)
		for j, ss := range groups {
			for k, sp := range ss.Spans {
				s, err := otlpToSpan(&sp, svc)
				if err == nil {
					s.Origin = telemetry.Origin{File: p.name, Line: line}
					err = p.add(s)
				}
				if err != nil {
					return fmt.Errorf("spans: %s: resourceSpans[%d].scopeSpans[%d].spans[%d]: %w", where, i, j, k, err)
				}
			}
		}
	}
	return nil
}

func otlpToSpan(sp *otlpSpan, svc string) (telemetry.Span, error) {
	s := telemetry.Span{
		TraceID:   normID(sp.TraceID),
		SpanID:    normID(sp.SpanID),
		ParentID:  normID(sp.ParentSpanID),
		Service:   svc,
		Operation: sp.Name,
		Start:     sp.Start.v,
		End:       sp.End.v,
	}
	if s.TraceID == "" || s.SpanID == "" {
		return s, fmt.Errorf("span %q has no traceId or spanId", sp.Name)
	}
	if !sp.Start.set {
		s.Start, s.End = 0, 0
	} else if !sp.End.set {
		s.End = s.Start
	}
	k, err := otlpKind(sp.Kind)
	if err != nil {
		return s, err
	}
	s.Kind = k
	code, err := otlpStatus(sp.Status.Code)
	if err != nil {
		return s, err
	}
	s.Error = code == 2
	for _, key := range []string{"peer.service", "server.address", "net.peer.name"} {
		if v := attr(sp.Attributes, key); v != "" {
			s.Peer = v
			break
		}
	}
	return s, nil
}

// otlpKind reads a span kind written as its number (0..5) or its enum
// name ("SPAN_KIND_SERVER").
func otlpKind(raw json.RawMessage) (telemetry.SpanKind, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return telemetry.KindUnspecified, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		switch strings.TrimPrefix(strings.ToUpper(name), "SPAN_KIND_") {
		case "UNSPECIFIED", "":
			return telemetry.KindUnspecified, nil
		case "INTERNAL":
			return telemetry.KindInternal, nil
		case "SERVER":
			return telemetry.KindServer, nil
		case "CLIENT":
			return telemetry.KindClient, nil
		case "PRODUCER":
			return telemetry.KindProducer, nil
		case "CONSUMER":
			return telemetry.KindConsumer, nil
		}
		return 0, fmt.Errorf("unknown span kind %q", name)
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 || n > 5 {
		return 0, fmt.Errorf("span kind %s is not 0..5 or a SPAN_KIND_ name", raw)
	}
	return telemetry.SpanKind(n), nil
}

// otlpStatus reads a status code written as a number or as its enum
// name ("STATUS_CODE_ERROR" is 2).
func otlpStatus(raw json.RawMessage) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		switch strings.TrimPrefix(strings.ToUpper(name), "STATUS_CODE_") {
		case "ERROR":
			return 2, nil
		case "OK":
			return 1, nil
		}
		return 0, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("status code %s is not a number or a STATUS_CODE_ name", raw)
	}
	return n, nil
}
