package preset

import (
	"strings"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// ressim's own OpenMetrics labels, as sim/export/openmetrics writes
// them: a call site's series carry caller, service (the callee) and
// operation; a client's call site has caller "client:NAME".
const (
	ressimService   = "service"
	ressimClient    = "client"
	ressimCaller    = "caller"
	ressimOperation = "operation"
	// ressimDefaultOp is the operation label of a call that names none
	// (sim/topology's default call name).
	ressimDefaultOp = "call"
	ressimClientPfx = "client:"
)

func ressimPreset() Preset {
	return Preset{
		Name: "ressim",
		Doc: "ressim's own OpenMetrics export (ressim run --openmetrics): " +
			"ressim_service_{requests,handled,errors}_total, ressim_service_request_duration_seconds, " +
			"ressim_service_busy_workers and ressim_service_workers by service; ressim_client_requests_total, " +
			`ressim_client_responses_total{outcome="good"} and ressim_client_request_duration_seconds by client; ` +
			"ressim_call_attempts_total and ressim_call_retries_total by caller, service (the callee) and operation, " +
			`a caller "client:NAME" giving that client's target.`,
		looks: []selector{
			mustSelector("ressim_service_requests_total"),
			mustSelector("ressim_service_request_duration_seconds_bucket"),
			mustSelector("ressim_client_requests_total"),
			mustSelector("ressim_call_attempts_total"),
		},
		read: readRessim,
	}
}

func readRessim(b *builder) {
	svc := one(byLabels(ressimService))
	b.counters(mustSelector("ressim_service_requests_total"), svc, func(k key, c *observe.Counter) { b.service(k.a).Requests = c })
	b.counters(mustSelector("ressim_service_handled_total"), svc, func(k key, c *observe.Counter) { b.service(k.a).Handled = c })
	b.counters(mustSelector("ressim_service_errors_total"), svc, func(k key, c *observe.Counter) { b.service(k.a).Errors = c })
	b.histograms(mustSelector("ressim_service_request_duration_seconds"), svc, unitSeconds, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })
	b.gauges(mustSelector("ressim_service_busy_workers"), svc, func(k key, g *observe.Gauge) { b.service(k.a).Busy = g })
	b.gauges(mustSelector("ressim_service_workers"), svc, func(k key, g *observe.Gauge) { b.service(k.a).Workers = g })

	cl := one(byLabels(ressimClient))
	b.counters(mustSelector("ressim_client_requests_total"), cl, func(k key, c *observe.Counter) { b.client(k.a).Requests = c })
	b.counters(mustSelector(`ressim_client_responses_total{outcome="good"}`), cl, func(k key, c *observe.Counter) { b.client(k.a).Good = c })
	b.histograms(mustSelector("ressim_client_request_duration_seconds"), cl, unitSeconds, func(k key, h *observe.Histogram) { b.client(k.a).Latency = h })

	site := func(s *telemetry.Series) (key, bool) {
		k := key{s.Label(ressimCaller), s.Label(ressimService), s.Label(ressimOperation)}
		if k.c == ressimDefaultOp {
			k.c = "" // a call without an operation: the experiment writes none
		}
		return k, k.a != "" && k.b != ""
	}
	b.counters(mustSelector("ressim_call_attempts_total"), site, func(k key, c *observe.Counter) {
		if name, ok := strings.CutPrefix(k.a, ressimClientPfx); ok {
			cl := b.client(name)
			cl.Target, cl.Operation = k.b, k.c
			return
		}
		b.edge(k).Calls = c
	})
	b.counters(mustSelector("ressim_call_retries_total"), site, func(k key, c *observe.Counter) {
		if strings.HasPrefix(k.a, ressimClientPfx) {
			return // a client has no retry counter in Observations
		}
		b.edge(k).Retries = c
	})
}
