package spans

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// zipkinSpan is one span of Zipkin's v2 JSON.
type zipkinSpan struct {
	TraceID        string            `json:"traceId"`
	ID             string            `json:"id"`
	ParentID       string            `json:"parentId"`
	Name           string            `json:"name"`
	Kind           string            `json:"kind"`
	Timestamp      jsonInt           `json:"timestamp"`
	Duration       jsonInt           `json:"duration"`
	LocalEndpoint  *zipkinEndpoint   `json:"localEndpoint"`
	RemoteEndpoint *zipkinEndpoint   `json:"remoteEndpoint"`
	Tags           map[string]string `json:"tags"`
}

type zipkinEndpoint struct {
	ServiceName string `json:"serviceName"`
}

// zipkin reads a Zipkin v2 list of spans from byte skip of p.data,
// giving each span the line its object starts on.
func (p *parser) zipkin(skip int) error {
	body := p.data[skip:]
	dec := json.NewDecoder(bytes.NewReader(body))
	fail := func(err error) error {
		// Decoder offsets are not always absolute: ask Unmarshal for the
		// position of the first error, which it gives from the start.
		var all []zipkinSpan
		if uerr := json.Unmarshal(body, &all); uerr != nil {
			return p.jsonErr(uerr, skip)
		}
		return fmt.Errorf("spans: %s: %w", p.name, err)
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	for i := 0; dec.More(); i++ {
		at := skip + int(dec.InputOffset())
		for at < len(p.data) && strings.IndexByte(" \t\r\n,", p.data[at]) >= 0 {
			at++
		}
		line := lineAt(p.data, at)
		var z zipkinSpan
		if err := dec.Decode(&z); err != nil {
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				return fail(err)
			}
			return fmt.Errorf("spans: %s:%d: span [%d]: %w", p.name, line, i, err)
		}
		s, err := zipkinToSpan(&z)
		if err == nil {
			s.Origin = telemetry.Origin{File: p.name, Line: line}
			err = p.add(s)
		}
		if err != nil {
			return fmt.Errorf("spans: %s:%d: span [%d]: %w", p.name, line, i, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	if _, err := dec.Token(); err == nil {
		return fmt.Errorf("spans: %s:%d: text after the list of spans", p.name, lineAt(p.data, skip+int(dec.InputOffset())))
	}
	return nil
}

func zipkinToSpan(z *zipkinSpan) (telemetry.Span, error) {
	s := telemetry.Span{
		TraceID:   normID(z.TraceID),
		SpanID:    normID(z.ID),
		ParentID:  normID(z.ParentID),
		Operation: z.Name,
	}
	if s.TraceID == "" || s.SpanID == "" {
		return s, fmt.Errorf("span %q has no traceId or id", z.Name)
	}
	if z.LocalEndpoint != nil {
		s.Service = z.LocalEndpoint.ServiceName
	}
	if z.RemoteEndpoint != nil {
		s.Peer = z.RemoteEndpoint.ServiceName
	}
	switch strings.ToUpper(z.Kind) {
	case "SERVER":
		s.Kind = telemetry.KindServer
	case "CLIENT":
		s.Kind = telemetry.KindClient
	case "PRODUCER":
		s.Kind = telemetry.KindProducer
	case "CONSUMER":
		s.Kind = telemetry.KindConsumer
	case "":
	default:
		return s, fmt.Errorf("unknown span kind %q", z.Kind)
	}
	_, s.Error = z.Tags["error"]
	if z.Timestamp.set {
		var err error
		if s.Start, s.End, err = microSpan(z.Timestamp.v, z.Duration.v, "timestamp", s.SpanID); err != nil {
			return s, err
		}
	}
	return s, nil
}
