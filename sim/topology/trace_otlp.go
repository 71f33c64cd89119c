package topology

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// OTLP/JSON's shapes (opentelemetry-proto's trace.v1, in the protobuf
// JSON mapping: int64 values as decimal strings, IDs as hex), the subset
// WriteOTLPTrace fills.
type (
	otlpTrace struct {
		ResourceSpans []otlpResourceSpans `json:"resourceSpans"`
	}
	otlpResourceSpans struct {
		Resource   otlpResource     `json:"resource"`
		ScopeSpans []otlpScopeSpans `json:"scopeSpans"`
	}
	otlpResource struct {
		Attributes []otlpKeyValue `json:"attributes"`
	}
	otlpScopeSpans struct {
		Scope otlpScope  `json:"scope"`
		Spans []otlpSpan `json:"spans"`
	}
	otlpScope struct {
		Name string `json:"name"`
	}
	otlpSpan struct {
		TraceID      string         `json:"traceId"`
		SpanID       string         `json:"spanId"`
		ParentSpanID string         `json:"parentSpanId,omitempty"`
		Name         string         `json:"name"`
		Kind         int            `json:"kind"`
		Start        string         `json:"startTimeUnixNano"`
		End          string         `json:"endTimeUnixNano"`
		Attributes   []otlpKeyValue `json:"attributes,omitempty"`
		Status       *otlpStatus    `json:"status,omitempty"`
	}
	otlpKeyValue struct {
		Key   string       `json:"key"`
		Value otlpAnyValue `json:"value"`
	}
	otlpAnyValue struct {
		StringValue *string `json:"stringValue,omitempty"`
		IntValue    *string `json:"intValue,omitempty"`
	}
	otlpStatus struct {
		Code    int    `json:"code"`
		Message string `json:"message,omitempty"`
	}
)

// otlpStatusError is OTLP's STATUS_CODE_ERROR.
const otlpStatusError = 2

func otlpString(k, v string) otlpKeyValue {
	return otlpKeyValue{Key: k, Value: otlpAnyValue{StringValue: &v}}
}

func otlpInt(k string, v int64) otlpKeyValue {
	s := strconv.FormatInt(v, 10)
	return otlpKeyValue{Key: k, Value: otlpAnyValue{IntValue: &s}}
}

// WriteOTLPTrace writes the sampled requests as an OTLP/JSON trace (an
// ExportTraceServiceRequest, as OpenTelemetry collectors and Jaeger,
// Tempo or Honeycomb import it): one resource per client and per service
// (service.name, clients first, in declaration order), whose spans are
// the user requests (CLIENT roots, one trace each), each attempt as its
// caller sent it (CLIENT, with peer.service the callee, a child of the
// caller's SERVER span or of the root) and each attempt's handling at the
// callee (SERVER, a child of the attempt). Simulated time 0 is start.
// Trace IDs are the run's seed and the request's number, span IDs the
// span's number in the run: the same run writes the same bytes. Failed
// spans (a failed answer, a timeout, a refusal, the user giving up) have
// status ERROR; spans still open at the end of the run end there, with
// ressim.detail saying so. It writes an empty trace if tracing was off.
func (r *Result) WriteOTLPTrace(w io.Writer, start time.Time) error {
	out := otlpTrace{ResourceSpans: []otlpResourceSpans{}}
	if t := r.trace; t != nil {
		out.ResourceSpans = r.otlpResources(t, start.UnixNano())
	}
	return json.NewEncoder(w).Encode(out)
}

// otlpResources groups t's spans by resource: the clients', then the
// services', in declaration order, each resource's spans in the order
// they began; resources without spans are left out.
func (r *Result) otlpResources(t *tracer, epoch int64) []otlpResourceSpans {
	type key struct {
		client bool
		name   string
	}
	var order []key
	for _, c := range r.Clients {
		order = append(order, key{true, c.Name})
	}
	for _, s := range r.Services {
		order = append(order, key{false, s.Name})
	}
	spans := make(map[key][]otlpSpan, len(order)) // read in order's order only
	for i := range t.otel {
		s := &t.otel[i]
		k := key{s.ofClient, s.resource}
		spans[k] = append(spans[k], r.otlpSpan(t, int32(i+1), epoch))
	}
	var out []otlpResourceSpans
	for _, k := range order {
		if len(spans[k]) == 0 {
			continue
		}
		out = append(out, otlpResourceSpans{
			Resource:   otlpResource{Attributes: []otlpKeyValue{otlpString("service.name", k.name)}},
			ScopeSpans: []otlpScopeSpans{{Scope: otlpScope{Name: "ressim"}, Spans: spans[k]}},
		})
	}
	return out
}

// otlpSpan converts span number n.
func (r *Result) otlpSpan(t *tracer, n int32, epoch int64) otlpSpan {
	s := t.span(n)
	to, detail := s.to, s.detail
	if !s.ended {
		to, detail = t.stop, "still open at the end of the run"
	}
	o := otlpSpan{
		TraceID: fmt.Sprintf("%016x%016x", r.Seed, s.req),
		SpanID:  fmt.Sprintf("%016x", n),
		Kind:    int(s.kind),
		Start:   strconv.FormatInt(epoch+int64(s.from), 10),
		End:     strconv.FormatInt(epoch+int64(to), 10),
	}
	if s.parent != 0 {
		o.ParentSpanID = fmt.Sprintf("%016x", s.parent)
	}
	switch {
	case s.kind == spanServer:
		o.Name = s.resource + "/" + s.op
		o.Attributes = append(o.Attributes, otlpInt("ressim.instance", int64(s.instance)))
	case s.attempt == 0: // the user's request
		o.Name = "request " + s.peer + "/" + s.op
		o.Attributes = append(o.Attributes, otlpString("peer.service", s.peer))
	default:
		o.Name = s.peer + "/" + s.op
		o.Attributes = append(o.Attributes, otlpString("peer.service", s.peer), otlpInt("ressim.attempt", int64(s.attempt)))
	}
	if detail != "" {
		o.Attributes = append(o.Attributes, otlpString("ressim.detail", detail))
	}
	if s.failed {
		o.Status = &otlpStatus{Code: otlpStatusError, Message: detail}
	}
	return o
}
