package preset

import (
	"strings"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// envoyDefaultLocal names the local service when neither Envoy's
// argument nor a series' local_cluster label does.
const envoyDefaultLocal = "local"

// envoyInfraClusters are clusters of the mesh's own plumbing (control
// plane, admin, telemetry, pass-through), not services.
func envoyInfraClusters() []string {
	return []string{"original-destination", "consul-dataplane", "prometheus_backend", "self_admin",
		"xds-grpc", "xds_cluster", "sds-grpc", "agent", "zipkin", "BlackHoleCluster", "PassthroughCluster",
		"InboundPassthroughCluster", "InboundPassthroughClusterIpv4", "InboundPassthroughClusterIpv6"}
}

// envoyCluster classifies a cluster: the local service's inbound cluster
// (Consul's local_app, Istio's inbound|...), an upstream service (Istio's
// outbound|port|subset|host, or the cluster name's first DNS label), or
// plumbing to skip.
func envoyCluster(name string) (callee string, inbound, skip bool) {
	if name == "local_app" || strings.HasPrefix(name, "inbound|") {
		return "", true, false
	}
	for _, c := range envoyInfraClusters() {
		if name == c {
			return "", false, true
		}
	}
	if rest, ok := strings.CutPrefix(name, "outbound|"); ok {
		parts := strings.Split(rest, "|")
		name = parts[len(parts)-1]
	}
	callee = hostService(name)
	return callee, false, callee == ""
}

// Envoy returns the preset for one Envoy's cluster stats; local names
// the service the Envoy fronts ("" takes it from each series'
// local_cluster or consul_source_service label, else "local").
func Envoy(local string) Preset {
	name := "envoy"
	if local != "" {
		name += ":" + local
	}
	return Preset{
		Name: name,
		Doc: "Envoy cluster stats: per envoy_cluster_name, envoy_cluster_upstream_rq_total (requests), " +
			`envoy_cluster_upstream_rq_xx{envoy_response_code_class="5"} (errors), envoy_cluster_upstream_rq_time ` +
			"(milliseconds, rescaled), envoy_cluster_upstream_rq_retry (retries) and envoy_cluster_upstream_rq_active " +
			"(in flight). The inbound cluster (local_app, inbound|...) is the local service itself; every other " +
			"cluster is an edge from the local service to the cluster's service (outbound|port|subset|HOST, or the " +
			"name's first DNS label), whose counts also stand for that service's requests, errors and latency when " +
			"its own proxy's stats are absent. Control-plane and pass-through clusters are skipped.",
		looks: []selector{
			mustSelector("envoy_cluster_upstream_rq_total"),
			mustSelector("envoy_cluster_upstream_rq_xx"),
			mustSelector("envoy_cluster_upstream_rq_time_bucket"),
			mustSelector("envoy_cluster_upstream_rq_retry"),
		},
		read: func(b *builder) { readEnvoy(b, local) },
	}
}

func readEnvoy(b *builder, local string) {
	localName := orLocal(local, envoyDefaultLocal, "local_cluster", "consul_source_service")
	skipped := make(map[string]bool) // lookup only
	var skippedOrder []string
	kf := func(s *telemetry.Series) (key, bool) {
		cluster := s.Label("envoy_cluster_name")
		callee, inbound, skip := envoyCluster(cluster)
		if skip {
			if cluster != "" && !skipped[cluster] {
				skipped[cluster] = true
				skippedOrder = append(skippedOrder, cluster)
			}
			return key{}, false
		}
		if inbound {
			return key{a: localName(s)}, true
		}
		return key{a: localName(s), b: callee}, true
	}
	rq, xx5 := mustSelector("envoy_cluster_upstream_rq_total"), mustSelector(`envoy_cluster_upstream_rq_xx{envoy_response_code_class="5"}`)
	rqTime := mustSelector("envoy_cluster_upstream_rq_time")
	b.counters(rq, kf, func(k key, c *observe.Counter) {
		if k.b == "" {
			b.service(k.a).Requests = c
			return
		}
		b.edge(k).Calls = c
	})
	b.counters(xx5, kf, func(k key, c *observe.Counter) {
		if k.b == "" {
			b.service(k.a).Errors = c
		}
	})
	b.counters(mustSelector("envoy_cluster_upstream_rq_retry"), kf, func(k key, c *observe.Counter) {
		if k.b != "" {
			b.edge(k).Retries = c
		}
	})
	b.histograms(rqTime, kf, unitMilliseconds, func(k key, h *observe.Histogram) {
		if k.b == "" {
			b.service(k.a).Latency = h
			return
		}
		b.edge(k).Latency = h
	})
	b.quietly(func() {
		up := callee(kf)
		b.counters(rq, up, func(k key, c *observe.Counter) { b.seenService(k.a).Requests = c })
		b.counters(xx5, up, func(k key, c *observe.Counter) { b.seenService(k.a).Errors = c })
		b.histograms(rqTime, up, unitMilliseconds, func(k key, h *observe.Histogram) { b.seenService(k.a).Latency = h })
	})
	b.gauges(mustSelector("envoy_cluster_upstream_rq_active"), kf, func(k key, g *observe.Gauge) {
		if k.b == "" {
			b.service(k.a).Busy = g
		}
	})
	if len(skippedOrder) > 0 {
		b.notef("envoy clusters skipped as mesh plumbing: %s", strings.Join(skippedOrder, ", "))
	}
}
