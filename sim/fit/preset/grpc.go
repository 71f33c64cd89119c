package preset

import (
	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// grpcServerErrors are the gRPC codes that mean the server failed, as
// opposed to the caller's mistake (InvalidArgument, NotFound, ...).
const grpcServerErrors = "Unknown|DeadlineExceeded|Unimplemented|Internal|Unavailable|DataLoss"

func grpcPreset() Preset {
	return Preset{
		Name: "grpc-prometheus",
		Doc: "go-grpc-prometheus (and grpc-ecosystem/go-grpc-middleware's prometheus provider): by job (else " +
			"grpc_service) grpc_server_started_total gives a service's requests, grpc_server_handled_total its " +
			"handled requests and, with grpc_code " + grpcServerErrors + ", its errors, grpc_server_handling_seconds " +
			"its latency; grpc_client_started_total and grpc_client_handling_seconds the edges from job to " +
			"grpc_service, operation grpc_method. A service named by job and a callee named by grpc_service only " +
			"meet when the job is named after the gRPC service.",
		looks: []selector{
			mustSelector("grpc_server_started_total"),
			mustSelector("grpc_server_handled_total"),
			mustSelector("grpc_server_handling_seconds_bucket"),
			mustSelector("grpc_client_started_total"),
		},
		read: readGRPC,
	}
}

func readGRPC(b *builder) {
	svc := one(byLabels("job", "grpc_service"))
	b.counters(mustSelector("grpc_server_started_total"), svc, func(k key, c *observe.Counter) { b.service(k.a).Requests = c })
	b.counters(mustSelector("grpc_server_handled_total"), svc, func(k key, c *observe.Counter) { b.service(k.a).Handled = c })
	b.counters(mustSelector(`grpc_server_handled_total{grpc_code=~"`+grpcServerErrors+`"}`), svc, func(k key, c *observe.Counter) { b.service(k.a).Errors = c })
	b.histograms(mustSelector("grpc_server_handling_seconds"), svc, unitSeconds, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })
	edge := func(s *telemetry.Series) (key, bool) {
		k := key{a: s.Label("job"), b: s.Label("grpc_service"), c: s.Label("grpc_method")}
		return k, k.a != "" && k.b != ""
	}
	b.counters(mustSelector("grpc_client_started_total"), edge, func(k key, c *observe.Counter) { b.edge(k).Calls = c })
	b.histograms(mustSelector("grpc_client_handling_seconds"), edge, unitSeconds, func(k key, h *observe.Histogram) { b.edge(k).Latency = h })
}
