package preset

import (
	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// linkerdDefaultLocal names the local service when neither Linkerd's
// argument nor a series' workload label does.
const linkerdDefaultLocal = "local"

// Linkerd returns the preset for Linkerd proxy metrics; local names the
// service the proxy belongs to ("" takes it from each series' deployment,
// statefulset or daemonset label, as Linkerd's Prometheus adds them, else
// "local").
func Linkerd(local string) Preset {
	name := "linkerd"
	if local != "" {
		name += ":" + local
	}
	return Preset{
		Name: name,
		Doc: `Linkerd proxy metrics: direction="inbound" series are the local service's: request_total (requests), ` +
			`response_total (handled), response_total{classification="failure"} (errors), response_latency_ms ` +
			`(latency, milliseconds rescaled). direction="outbound" series are edges from the local service to ` +
			"dst_service (else dst_deployment, dst_statefulset, or the authority's first DNS label), whose counts " +
			"also stand for that service's when its own proxy's metrics are absent.",
		looks: []selector{
			mustSelector(`request_total{direction=~"inbound|outbound"}`),
			mustSelector(`response_total{direction=~"inbound|outbound"}`),
			mustSelector(`response_latency_ms_bucket{direction=~"inbound|outbound"}`),
		},
		read: func(b *builder) { readLinkerd(b, local) },
	}
}

func readLinkerd(b *builder, local string) {
	localName := orLocal(local, linkerdDefaultLocal, "deployment", "statefulset", "daemonset")
	in := one(localName)
	const reqs, resps, lat = "request_total", "response_total", "response_latency_ms"
	inbound := mustSelector(`x{direction="inbound"}`)
	b.counters(inbound.with(reqs), in, func(k key, c *observe.Counter) { b.service(k.a).Requests = c })
	b.counters(inbound.with(resps), in, func(k key, c *observe.Counter) { b.service(k.a).Handled = c })
	b.counters(inbound.with(resps, mustSelector(`x{classification="failure"}`).matchers...), in, func(k key, c *observe.Counter) { b.service(k.a).Errors = c })
	b.histograms(inbound.with(lat), in, unitMilliseconds, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })

	dst := func(s *telemetry.Series) string {
		if v := byLabels("dst_service", "dst_deployment", "dst_statefulset")(s); v != "" {
			return v
		}
		return hostService(s.Label("authority"))
	}
	edge := func(s *telemetry.Series) (key, bool) {
		k := key{a: localName(s), b: dst(s)}
		return k, k.b != ""
	}
	outbound := mustSelector(`x{direction="outbound"}`)
	failed := outbound.with(resps, mustSelector(`x{classification="failure"}`).matchers...)
	b.counters(outbound.with(reqs), edge, func(k key, c *observe.Counter) { b.edge(k).Calls = c })
	b.histograms(outbound.with(lat), edge, unitMilliseconds, func(k key, h *observe.Histogram) { b.edge(k).Latency = h })
	b.quietly(func() {
		up := callee(edge)
		b.counters(outbound.with(reqs), up, func(k key, c *observe.Counter) { b.seenService(k.a).Requests = c })
		b.counters(failed, up, func(k key, c *observe.Counter) { b.seenService(k.a).Errors = c })
		b.histograms(outbound.with(lat), up, unitMilliseconds, func(k key, h *observe.Histogram) { b.seenService(k.a).Latency = h })
	})
}
