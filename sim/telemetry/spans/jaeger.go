package spans

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// The Jaeger JSON shapes read here: the query API's answer, and one of
// its traces alone.
type (
	jaegerDoc struct {
		Data []jaegerTrace `json:"data"`
	}
	jaegerTrace struct {
		TraceID   string                   `json:"traceID"`
		Spans     []jaegerSpan             `json:"spans"`
		Processes map[string]jaegerProcess `json:"processes"`
	}
	jaegerProcess struct {
		ServiceName string `json:"serviceName"`
	}
	jaegerSpan struct {
		TraceID       string `json:"traceID"`
		SpanID        string `json:"spanID"`
		ParentSpanID  string `json:"parentSpanID"`
		OperationName string `json:"operationName"`
		References    []struct {
			RefType string `json:"refType"`
			TraceID string `json:"traceID"`
			SpanID  string `json:"spanID"`
		} `json:"references"`
		StartTime jsonInt     `json:"startTime"`
		Duration  jsonInt     `json:"duration"`
		ProcessID string      `json:"processID"`
		Tags      []jaegerTag `json:"tags"`
	}
	jaegerTag struct {
		Key   string          `json:"key"`
		Value json.RawMessage `json:"value"`
	}
)

// text returns a tag value as text: a JSON string's content, else the
// JSON as written (true, 42).
func (t jaegerTag) text() string {
	var s string
	if json.Unmarshal(t.Value, &s) == nil {
		return s
	}
	return string(t.Value)
}

// jaeger reads a Jaeger JSON document from byte skip of p.data.
func (p *parser) jaeger(skip int) error {
	body := p.data[skip:]
	var doc jaegerDoc
	keys, _ := topKeys(body)
	if keys["data"] {
		if err := json.Unmarshal(body, &doc); err != nil {
			return p.jsonErr(err, skip)
		}
	} else {
		var t jaegerTrace
		if err := json.Unmarshal(body, &t); err != nil {
			return p.jsonErr(err, skip)
		}
		doc.Data = []jaegerTrace{t}
	}
	for i := range doc.Data {
		t := &doc.Data[i]
		for j := range t.Spans {
			s, err := jaegerToSpan(t, &t.Spans[j])
			if err == nil {
				s.Origin = telemetry.Origin{File: p.name}
				err = p.add(s)
			}
			if err != nil {
				return fmt.Errorf("spans: %s: data[%d].spans[%d]: %w", p.name, i, j, err)
			}
		}
	}
	return nil
}

func jaegerToSpan(t *jaegerTrace, js *jaegerSpan) (telemetry.Span, error) {
	trace := js.TraceID
	if trace == "" {
		trace = t.TraceID
	}
	s := telemetry.Span{
		TraceID:   normID(trace),
		SpanID:    normID(js.SpanID),
		ParentID:  normID(js.ParentSpanID),
		Operation: js.OperationName,
	}
	if s.TraceID == "" || s.SpanID == "" {
		return s, fmt.Errorf("span %q has no traceID or spanID", js.OperationName)
	}
	if proc, ok := t.Processes[js.ProcessID]; ok {
		s.Service = proc.ServiceName
	} else if js.ProcessID != "" {
		return s, fmt.Errorf("span %s names process %q, which is not in processes", s.SpanID, js.ProcessID)
	}
	// The parent is the first CHILD_OF reference, else the first
	// FOLLOWS_FROM one, within the same trace.
	for _, want := range []string{"CHILD_OF", "FOLLOWS_FROM"} {
		if s.ParentID != "" {
			break
		}
		for _, r := range js.References {
			if strings.EqualFold(r.RefType, want) && (r.TraceID == "" || normID(r.TraceID) == s.TraceID) {
				s.ParentID = normID(r.SpanID)
				break
			}
		}
	}
	for _, tag := range js.Tags {
		v := tag.text()
		switch tag.Key {
		case "span.kind":
			switch strings.ToLower(v) {
			case "server":
				s.Kind = telemetry.KindServer
			case "client":
				s.Kind = telemetry.KindClient
			case "producer":
				s.Kind = telemetry.KindProducer
			case "consumer":
				s.Kind = telemetry.KindConsumer
			case "internal":
				s.Kind = telemetry.KindInternal
			}
		case "error":
			s.Error = strings.EqualFold(v, "true")
		case "otel.status_code":
			if strings.EqualFold(v, "ERROR") {
				s.Error = true
			}
		case "peer.service":
			s.Peer = v
		case "server.address", "net.peer.name":
			if s.Peer == "" {
				s.Peer = v
			}
		}
	}
	if js.StartTime.set {
		var err error
		if s.Start, s.End, err = microSpan(js.StartTime.v, js.Duration.v, "startTime", s.SpanID); err != nil {
			return s, err
		}
	}
	return s, nil
}
