package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// TestToolDefaults: a setting the source leaves out gets the source
// tool's default, not ressim's, citing where it would have been (issue
// 24). Each row: the tool's documented default (file of its API) and the
// line the import must write.
func TestToolDefaults(t *testing.T) {
	envoy := func(route, outlier string) string {
		return `static_resources:
  listeners:
  - name: l
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          route_config:
            virtual_hosts:
            - name: v
              routes:
              - match: { prefix: "/" }
                route:
                  cluster: backend
` + route + `
  clusters:
  - name: backend
    outlier_detection:
      consecutive_5xx: 3
` + outlier
	}
	istio := func(outlier string) string {
		return `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: r
spec:
  host: reviews
  trafficPolicy:
    outlierDetection:
      consecutive5xxErrors: 3
` + outlier
	}
	for _, tc := range []struct {
		name, kind, src string
		want, not       []string
	}{
		// envoy/config/route/v3/route_components.proto, RouteAction.timeout:
		// "If not specified, the default is 15s."
		{"envoy route timeout", "envoy", envoy("", ""), []string{`timeout = "15s" # cfg:13:17 routes[0].route.timeout(default)`}, nil},
		{"envoy route timeout set", "envoy", envoy("                  timeout: 3s", ""), []string{`timeout = "3s"`}, []string{"timeout(default)"}},
		// envoy/config/cluster/v3/outlier_detection.proto,
		// max_ejection_percent: "Defaults to 10%".
		{"envoy max_ejection_percent", "envoy", envoy("", ""), []string{"outlier.max_ejection_percent = 10 #"}, nil},
		{"envoy max_ejection_percent set", "envoy", envoy("", "      max_ejection_percent: 40"), []string{"outlier.max_ejection_percent = 40 #"}, []string{"max_ejection_percent(default)"}},
		// envoy/config/cluster/v3/circuit_breaker.proto: "If no Thresholds
		// is defined for a given RoutingPriority, the default values are
		// used"; max_requests "the default is 1024", max_retries "The
		// maximum number of parallel retries ... the default is 3".
		{"envoy circuit breaker defaults", "envoy", envoy("", ""), []string{
			"bulkhead.max_concurrent = 1024 # cfg:17:5 static_resources.clusters[0].circuit_breakers.thresholds.max_requests(default)",
			`bulkhead.max_wait = "0s" # cfg:17:5`,
			`retry_budget.kind = "concurrency" # cfg:17:5 static_resources.clusters[0].circuit_breakers.thresholds.max_retries(default)`,
			"retry_budget.budget_percent = 0 # cfg:17:5", "retry_budget.min_retry_concurrency = 3 # cfg:17:5"}, nil},
		{"envoy max_retries set", "envoy", envoy("", "    circuit_breakers: {thresholds: [{max_retries: 7}]}"), []string{
			"retry_budget.min_retry_concurrency = 7 #", "bulkhead.max_concurrent = 1024 #"}, []string{"max_retries(default)"}},
		{"envoy retry_budget set", "envoy", envoy("", "    circuit_breakers: {thresholds: [{retry_budget: {min_retry_concurrency: 9}, max_requests: 64}]}"), []string{
			"retry_budget.budget_percent = 20 #", "retry_budget.min_retry_concurrency = 9 #", "bulkhead.max_concurrent = 64 #"}, []string{"max_requests(default)", "max_retries(default)"}},
		{"envoy HIGH thresholds only", "envoy", envoy("", "    circuit_breakers: {thresholds: [{priority: HIGH, max_retries: 9}]}"), []string{
			"retry_budget.min_retry_concurrency = 3 # cfg:17:5"}, []string{"min_retry_concurrency = 9"}},
		// istio networking/v1alpha3/destination_rule.proto,
		// OutlierDetection.maxEjectionPercent: "Defaults to 10%".
		{"istio maxEjectionPercent", "istio", istio(""), []string{"outlier.max_ejection_percent = 10 # cfg:8:5 DestinationRule.spec.trafficPolicy.outlierDetection.maxEjectionPercent(default)"}, nil},
		{"istio maxEjectionPercent set", "istio", istio("      maxEjectionPercent: 30"), []string{"outlier.max_ejection_percent = 30 #"}, []string{"maxEjectionPercent(default)"}},
		// istio networking/v1alpha3/destination_rule.proto,
		// LoadBalancerSettings.SimpleLB UNSPECIFIED: "Istio will select
		// an appropriate default", LEAST_REQUEST since Istio 1.14.
		{"istio load balancer", "istio", istio(""), []string{`balancer = "power_of_two" # cfg:6:9 DestinationRule.spec.trafficPolicy.loadBalancer.simple(default)`}, nil},
		{"istio load balancer set", "istio", istio("    loadBalancer: {simple: ROUND_ROBIN}"), []string{`balancer = "round_robin" # cfg:10:`}, []string{"simple(default)"}},
	} {
		res, err := Import(tc.kind, []Source{{Name: "cfg", Data: []byte(tc.src)}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := experiment.Parse("gen.toml", []byte(res.TOML)); err != nil {
			t.Errorf("%s: the generated experiment is invalid: %v\n%s", tc.name, err, res.TOML)
		}
		for _, w := range tc.want {
			if !strings.Contains(res.TOML, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, res.TOML)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(res.TOML, n) {
				t.Errorf("%s: %q in\n%s", tc.name, n, res.TOML)
			}
		}
	}
}

// TestIstioWeightedSplit: a route's weighted destinations become a
// choose step in the model, each subset a service of its own (issue 24:
// Bookinfo's 80/20 between reviews' subsets vanished), the route's
// settings on every branch, and a DestinationRule's host-level policy on
// every subset's service, whichever file comes first.
func TestIstioWeightedSplit(t *testing.T) {
	vs := `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts: [reviews]
  http:
  - route:
    - destination: {host: reviews, subset: v1}
      weight: 80
    - destination: {host: reviews, subset: v2}
      weight: 20
    timeout: 2s
`
	dr := `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: reviews
spec:
  host: reviews
  trafficPolicy:
    outlierDetection: {consecutive5xxErrors: 3}
`
	for name, srcs := range map[string][]Source{
		"vs first": {{Name: "vs.yaml", Data: []byte(vs)}, {Name: "dr.yaml", Data: []byte(dr)}},
		"dr first": {{Name: "dr.yaml", Data: []byte(dr)}, {Name: "vs.yaml", Data: []byte(vs)}},
	} {
		res, err := Import("istio", srcs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, err := experiment.Parse("gen.toml", []byte(res.TOML))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, res.TOML)
		}
		steps := e.Model.Services[0].Steps
		if len(steps) != 1 || steps[0].Kind != topology.ChooseStep {
			t.Fatalf("%s: caller's steps %+v, want one choose step\n%s", name, steps, res.TOML)
		}
		for i, want := range []struct {
			svc    string
			weight float64
		}{{"reviews-v1", 80}, {"reviews-v2", 20}} {
			cc := steps[0].Calls[i]
			if cc.Service != want.svc || cc.Weight != want.weight || cc.Policy.Timeout != 2*time.Second {
				t.Errorf("%s: branch %d = %s weight %v timeout %v, want %s %v 2s", name, i, cc.Service, cc.Weight, cc.Policy.Timeout, want.svc, want.weight)
			}
		}
		for _, s := range e.Model.Services[1:] {
			if s.Guards.Outlier == nil || s.Guards.Outlier.Consecutive5xx != 3 {
				t.Errorf("%s: %s lacks the DestinationRule's outlier detection", name, s.Name)
			}
		}
	}
}

// TestIstioZeroWeights: a destination of weight 0 gets no traffic (Istio),
// so a route whose other destinations all weigh 0 calls the one left, its
// host whole (with the single-subset warning), and not the first listed:
// after a blue/green shift to new-shop, the import once called old-shop.
// A weight out of (0, 100] and a subset that makes no valid service name
// are errors at the destination.
func TestIstioZeroWeights(t *testing.T) {
	route := func(dests string) string {
		return "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: shop}\n" +
			"spec:\n  hosts: [shop]\n  http:\n  - route:\n" + dests
	}
	for _, c := range []struct {
		name, dests, call, warn string
	}{
		{"shifted to another host", "    - destination: {host: old-shop}\n      weight: 0\n    - destination: {host: new-shop}\n      weight: 100\n",
			`call = "new-shop" # vs.yaml:10:27 VirtualService.spec.http[0].route[1].destination.host`, ""},
		{"shifted to another subset", "    - destination: {host: shop, subset: v1}\n      weight: 100\n    - destination: {host: shop, subset: v2}\n      weight: 0\n",
			`call = "shop" # vs.yaml:8:27`, `vs.yaml:8:27: VirtualService.spec.http[0].route[0].destination.host: not modelled: a single subset; the destination is the whole host "shop"`},
	} {
		res, err := Import("istio", []Source{{Name: "vs.yaml", Data: []byte(route(c.dests))}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.Contains(res.TOML, c.call) || strings.Contains(res.TOML, "choose") {
			t.Errorf("%s: the experiment lacks %q (or splits):\n%s", c.name, c.call, res.TOML)
		}
		var ws []string
		for _, w := range res.Warnings {
			ws = append(ws, w.String())
		}
		if c.warn != "" && !strings.Contains(strings.Join(ws, "\n"), c.warn) {
			t.Errorf("%s: warnings lack %q:\n%s", c.name, c.warn, strings.Join(ws, "\n"))
		}
		if _, err := experiment.Parse("gen.toml", []byte(res.TOML)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	for _, c := range []struct{ name, dests, want string }{
		{"a weight over 100", "    - destination: {host: a}\n      weight: 150\n    - destination: {host: b}\n      weight: 10\n",
			`vs.yaml:8:27: VirtualService.spec.http[0].route[0].destination.host: a route with several destinations needs a weight in (0, 100] on each, got "150"`},
		{"a missing weight", "    - destination: {host: a}\n    - destination: {host: b}\n      weight: 10\n",
			`a route with several destinations needs a weight in (0, 100] on each, got ""`},
		{"a subset that makes a bad name", "    - destination: {host: a, subset: \"v 1\"}\n      weight: 50\n    - destination: {host: b}\n      weight: 50\n",
			`destination "a-v 1" is not a valid ressim service name`},
	} {
		_, err := Import("istio", []Source{{Name: "vs.yaml", Data: []byte(route(c.dests))}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestEnvoyLbPolicy: a cluster's lb_policy becomes the callee's balancer
// (envoy/config/cluster/v3/cluster.proto LbPolicy; LEAST_REQUEST picks the
// less loaded of choice_count random hosts, default 2); the hashing
// policies are warned and the callee keeps round_robin, Envoy's default.
func TestEnvoyLbPolicy(t *testing.T) {
	for policy, want := range map[string]string{
		"ROUND_ROBIN":   `balancer = "round_robin" # cfg:3:3 clusters[0].lb_policy`,
		"LEAST_REQUEST": `balancer = "power_of_two" # cfg:3:3 clusters[0].lb_policy`,
		"RANDOM":        `balancer = "random" # cfg:3:3 clusters[0].lb_policy`,
		"RING_HASH":     "",
	} {
		res, err := Import("envoy", []Source{{Name: "cfg", Data: []byte("clusters:\n- name: backend\n  lb_policy: " + policy + "\n")}})
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		if want == "" {
			var ws []string
			for _, w := range res.Warnings {
				ws = append(ws, w.String())
			}
			if strings.Contains(res.TOML, "balancer =") || !strings.Contains(strings.Join(ws, "\n"), `cfg:3:3: clusters[0].lb_policy: "RING_HASH" is not modelled`) {
				t.Errorf("%s: balancer set or no warning:\n%s\n%s", policy, res.TOML, strings.Join(ws, "\n"))
			}
			continue
		}
		if !strings.Contains(res.TOML, want) {
			t.Errorf("%s: no %q in\n%s", policy, want, res.TOML)
		}
	}
}

// TestEnvoyRetryWithoutRetryOn: a retry_policy without retry_on retries
// only on what a request's x-envoy-retry-on header names, which the file
// does not say: it imports without retries, with a warning, where it was
// refused as naming no condition. A retry_on that names only conditions
// ressim does not model is still an error (TestEnvoyErrors).
func TestEnvoyRetryWithoutRetryOn(t *testing.T) {
	src := "virtual_hosts:\n- name: v\n  routes:\n  - route:\n      cluster: a\n      timeout: 1s\n      retry_policy: {num_retries: 3, per_try_timeout: 0.2s}\n"
	res, err := Import("envoy", []Source{{Name: "cfg", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range res.Warnings {
		ws = append(ws, w.String())
	}
	if strings.Contains(res.TOML, "retry.") || !strings.Contains(res.TOML, `timeout = "200ms" # cfg:7:38`) ||
		!strings.Contains(strings.Join(ws, "\n"), "cfg:7:7: routes[0].route.retry_policy: no retry_on: Envoy retries only on the conditions a request's x-envoy-retry-on") {
		t.Errorf("import:\n%s\nwarnings:\n%s", res.TOML, strings.Join(ws, "\n"))
	}
	if _, err := experiment.Parse("gen.toml", []byte(res.TOML)); err != nil {
		t.Error(err)
	}
}
