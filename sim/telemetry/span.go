package telemetry

// SpanKind is a span's role in a call, as OpenTelemetry defines it.
type SpanKind uint8

// The span kinds. Zipkin's SERVER/CLIENT/PRODUCER/CONSUMER and Jaeger's
// span.kind tag map onto the same values; a span without one is
// KindUnspecified.
const (
	KindUnspecified SpanKind = iota
	KindInternal
	KindServer
	KindClient
	KindProducer
	KindConsumer
)

// String names the kind in lower case ("server", "client", ...).
func (k SpanKind) String() string {
	names := [...]string{"unspecified", "internal", "server", "client", "producer", "consumer"}
	if int(k) < len(names) {
		return names[k]
	}
	return "unknown"
}

// Span is one span of a trace. Times are nanoseconds since the Unix epoch.
type Span struct {
	TraceID, SpanID string
	// ParentID is the parent span's ID, "" for a root.
	ParentID string
	// Service is the service that recorded the span (OTLP's service.name
	// resource attribute, Zipkin's localEndpoint.serviceName, Jaeger's
	// process serviceName, the span CSV's pod name less its replica
	// suffix).
	Service string
	// Operation is the span's name (an RPC method, an HTTP route).
	Operation string
	Kind      SpanKind
	// Peer is the remote service a client span calls, when the format
	// says (Zipkin's remoteEndpoint.serviceName, OTLP's peer.service or
	// server.address attribute), else "".
	Peer       string
	Start, End int64
	// Error is true when the span's status (OTLP status code 2, a Zipkin
	// "error" tag, Jaeger's error=true) marks a failure.
	Error  bool
	Origin Origin
}

// Duration returns End - Start in nanoseconds.
func (s *Span) Duration() int64 { return s.End - s.Start }
