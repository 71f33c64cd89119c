package preset

import (
	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// otelServiceLabels name the service an OpenTelemetry series belongs to:
// the service.name resource attribute when promoted to a label, else the
// Prometheus job (which the OTel exporters set from it).
func otelServiceLabels() []string { return []string{"service_name", "job"} }

// durationFamily is a histogram family whose _count counts the requests
// and whose 5xx (or non-OK) share counts the errors.
type durationFamily struct {
	base   string
	u      unit
	errors selector // the matchers picking failed requests (name unused)
}

// readServerFamilies gives services their requests (the histograms'
// _count), errors and latency from each family, a later family
// overriding an earlier one for a service both cover.
func readServerFamilies(b *builder, fams []durationFamily, svc keyFunc) {
	for _, f := range fams {
		b.counters(mustSelector(f.base+"_count"), svc, func(k key, c *observe.Counter) { b.service(k.a).Requests = c })
		b.counters(f.errors.with(f.base+"_count"), svc, func(k key, c *observe.Counter) { b.service(k.a).Errors = c })
		b.histograms(mustSelector(f.base), svc, f.u, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })
	}
}

// readClientFamilies gives edges their calls (the histograms' _count)
// and latency.
func readClientFamilies(b *builder, fams []durationFamily, edge keyFunc) {
	for _, f := range fams {
		b.counters(mustSelector(f.base+"_count"), edge, func(k key, c *observe.Counter) { b.edge(k).Calls = c })
		b.histograms(mustSelector(f.base), edge, f.u, func(k key, h *observe.Histogram) { b.edge(k).Latency = h })
	}
}

func otelHTTPPreset() Preset {
	return Preset{
		Name: "otel-http",
		Doc: "OpenTelemetry HTTP semantic conventions as Prometheus names: http_server_request_duration_seconds " +
			"(and the older http_server_duration_milliseconds) by service_name or job give each service its " +
			"requests, 5xx errors (http_response_status_code, or the older http_status_code) and latency; " +
			"http_server_active_requests its busy level; http_client_request_duration_seconds (or " +
			"http_client_duration_milliseconds) the edges from the service to server_address (or peer_service, " +
			"net_peer_name), the host's first DNS label.",
		looks: []selector{
			mustSelector("http_server_request_duration_seconds_bucket"),
			mustSelector("http_server_duration_milliseconds_bucket"),
			mustSelector("http_client_request_duration_seconds_bucket"),
			mustSelector("http_client_duration_milliseconds_bucket"),
		},
		read: readOTelHTTP,
	}
}

func readOTelHTTP(b *builder) {
	svc := one(byLabels(otelServiceLabels()...))
	readServerFamilies(b, []durationFamily{
		{"http_server_duration_milliseconds", unitMilliseconds, mustSelector(`x{http_status_code=~"5.."}`)},
		{"http_server_request_duration_seconds", unitSeconds, mustSelector(`x{http_response_status_code=~"5.."}`)},
	}, svc)
	b.gauges(mustSelector("http_server_active_requests"), svc, func(k key, g *observe.Gauge) { b.service(k.a).Busy = g })
	caller := byLabels(otelServiceLabels()...)
	peer := byLabels("server_address", "peer_service", "net_peer_name")
	edge := func(s *telemetry.Series) (key, bool) {
		k := key{a: caller(s), b: hostService(peer(s))}
		return k, k.a != "" && k.b != ""
	}
	readClientFamilies(b, []durationFamily{
		{base: "http_client_duration_milliseconds", u: unitMilliseconds},
		{base: "http_client_request_duration_seconds", u: unitSeconds},
	}, edge)
}

func otelRPCPreset() Preset {
	return Preset{
		Name: "otel-rpc",
		Doc: "OpenTelemetry RPC semantic conventions as Prometheus names: rpc_server_duration_milliseconds, " +
			"rpc_server_duration_seconds or rpc_server_call_duration_seconds by service_name or job (else rpc_service) " +
			"give each service its requests, errors (rpc_grpc_status_code other than 0) and latency; " +
			"rpc_client_duration_milliseconds, rpc_client_duration_seconds or rpc_client_call_duration_seconds the " +
			"edges from the service to rpc_service (else server_address), operation rpc_method.",
		looks: []selector{
			mustSelector("rpc_server_duration_milliseconds_bucket"),
			mustSelector("rpc_server_duration_seconds_bucket"),
			mustSelector("rpc_server_call_duration_seconds_bucket"),
			mustSelector("rpc_client_duration_milliseconds_bucket"),
			mustSelector("rpc_client_duration_seconds_bucket"),
			mustSelector("rpc_client_call_duration_seconds_bucket"),
		},
		read: readOTelRPC,
	}
}

func readOTelRPC(b *builder) {
	failed := mustSelector(`x{rpc_grpc_status_code!~"|0|OK"}`)
	svc := one(byLabels(append(otelServiceLabels(), "rpc_service")...))
	readServerFamilies(b, []durationFamily{
		{"rpc_server_duration_milliseconds", unitMilliseconds, failed},
		{"rpc_server_duration_seconds", unitSeconds, failed},
		{"rpc_server_call_duration_seconds", unitSeconds, failed},
	}, svc)
	caller := byLabels(otelServiceLabels()...)
	peer := func(s *telemetry.Series) string {
		if v := s.Label("rpc_service"); v != "" {
			return v
		}
		return hostService(byLabels("server_address", "net_peer_name")(s))
	}
	edge := func(s *telemetry.Series) (key, bool) {
		k := key{a: caller(s), b: peer(s), c: s.Label("rpc_method")}
		return k, k.a != "" && k.b != ""
	}
	readClientFamilies(b, []durationFamily{
		{base: "rpc_client_duration_milliseconds", u: unitMilliseconds},
		{base: "rpc_client_duration_seconds", u: unitSeconds},
		{base: "rpc_client_call_duration_seconds", u: unitSeconds},
	}, edge)
}
