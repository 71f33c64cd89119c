package preset

import (
	"sort"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// istioClientSources are the source workloads of traffic from outside
// the mesh: an unidentified source, or an ingress gateway.
const istioClientSources = `unknown|.*ingressgateway.*`

func istioPreset() Preset {
	return Preset{
		Name: "istio",
		Doc: "Istio's standard metrics: istio_requests_total and istio_request_duration_milliseconds " +
			`(milliseconds, rescaled to seconds). Series with reporter="destination" give each destination_workload ` +
			"(or destination_service_name) its requests, 5xx errors and latency; those whose source_workload is " +
			`"unknown" or an ingress gateway are clients, named by source_workload, targeting the destination. ` +
			`Series with reporter="source" from other workloads give the edges source_workload → destination.`,
		looks: []selector{
			mustSelector("istio_requests_total"),
			mustSelector("istio_request_duration_milliseconds_bucket"),
		},
		read: readIstio,
	}
}

func readIstio(b *builder) {
	dest := func(s *telemetry.Series) string {
		if v := known(s.Label("destination_workload")); v != "" {
			return v
		}
		return known(s.Label("destination_service_name"))
	}
	const reqs, lat = "istio_requests_total", "istio_request_duration_milliseconds"
	server := mustSelector(`x{reporter="destination"}`)
	svc := one(dest)
	b.counters(server.with(reqs), svc, func(k key, c *observe.Counter) { b.service(k.a).Requests = c })
	b.counters(server.with(reqs, mustSelector(`x{response_code=~"5.."}`).matchers...), svc, func(k key, c *observe.Counter) { b.service(k.a).Errors = c })
	b.histograms(server.with(lat), svc, unitMilliseconds, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })

	fromOutside := server.with("", mustSelector(`x{source_workload=~"`+istioClientSources+`"}`).matchers...)
	src := one(byLabels("source_workload"))
	b.counters(fromOutside.with(reqs), src, func(k key, c *observe.Counter) { b.client(k.a).Requests = c })
	b.histograms(fromOutside.with(lat), src, unitMilliseconds, func(k key, h *observe.Histogram) {
		b.client(k.a).Latency = h
	})
	targets := make(map[string][]string) // lookup only; values sorted below
	pair := func(s *telemetry.Series) (key, bool) {
		k := key{a: s.Label("source_workload"), b: dest(s)}
		return k, k.a != "" && k.b != ""
	}
	for _, g := range b.groups(fromOutside.with(reqs), pair) {
		targets[g.key.a] = append(targets[g.key.a], g.key.b)
	}
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if t := targets[n]; len(t) == 1 {
			b.client(n).Target = t[0]
		} else {
			b.notef("client %s calls %d destinations; its target is left empty", n, len(t))
		}
	}
	if len(names) > 0 {
		b.notef("istio clients' latency is their destination's server-side latency")
	}

	caller := mustSelector(`x{reporter="source",source_workload!~"` + istioClientSources + `"}`)
	edge := func(s *telemetry.Series) (key, bool) {
		k := key{a: known(s.Label("source_workload")), b: dest(s)}
		return k, k.a != "" && k.b != ""
	}
	b.counters(caller.with(reqs), edge, func(k key, c *observe.Counter) { b.edge(k).Calls = c })
	b.histograms(caller.with(lat), edge, unitMilliseconds, func(k key, h *observe.Histogram) { b.edge(k).Latency = h })
}
