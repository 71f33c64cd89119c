package preset

import (
	"strings"
	"testing"
)

func TestEnvoy(t *testing.T) {
	c := func(cluster string, kv ...string) []string {
		return append([]string{"envoy_cluster_name", cluster}, kv...)
	}
	up := "outbound|9080||reviews.default.svc.cluster.local"
	set := setOf(
		one1(
			mk("envoy_cluster_upstream_rq_total", c(up)...)(1, 100, 2, 150),
			mk("envoy_cluster_upstream_rq_total", c("inbound|9080||")...)(1, 40, 2, 10), // restarted
			mk("envoy_cluster_upstream_rq_total", c("xds-grpc")...)(1, 3, 2, 4),
			mk("envoy_cluster_upstream_rq_xx", c(up, "envoy_response_code_class", "5")...)(1, 1, 2, 3),
			mk("envoy_cluster_upstream_rq_xx", c(up, "envoy_response_code_class", "2")...)(1, 99, 2, 147),
			mk("envoy_cluster_upstream_rq_retry", c(up)...)(1, 0, 2, 2),
			mk("envoy_cluster_upstream_rq_active", c("inbound|9080||")...)(1, 2, 2, 3),
		),
		hist("envoy_cluster_upstream_rq_time", c(up), []string{"1", "10", "100", "+Inf"}, []float64{10, 80, 100, 100}, []float64{15, 120, 150, 150}, 900, 1300),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "envoy" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	p, ok := ByName("envoy:productpage")
	if !ok || p.Name != "envoy:productpage" {
		t.Fatalf("ByName(envoy:productpage) = %q, %v", p.Name, ok)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	e := findEdge(t, o, "productpage", "reviews")
	if last(t, "calls", e.Calls) != 150 || last(t, "retries", e.Retries) != 2 || e.Latency.Bounds[1] != 0.01 || e.Latency.Points[1].Sum != 1.3 {
		t.Errorf("edge %+v", e)
	}
	rv := findService(t, o, "reviews")
	if last(t, "requests", rv.Requests) != 150 || last(t, "errors", rv.Errors) != 3 {
		t.Errorf("reviews %+v", rv)
	}
	pp := findService(t, o, "productpage")
	if last(t, "inbound", pp.Requests) != 50 || pp.Busy == nil || pp.Busy.Points[1].V != 3 {
		t.Errorf("productpage %+v: want 50 requests (reset undone), busy 3", pp)
	}
	if len(o.Services) != 2 || len(o.Edges) != 1 {
		t.Errorf("services %d, edges %d: want xds-grpc skipped", len(o.Services), len(o.Edges))
	}
	if !strings.Contains(strings.Join(o.Notes, "\n"), "xds-grpc") {
		t.Errorf("notes %q", o.Notes)
	}
}

func TestEnvoyRealScrape(t *testing.T) {
	set := readShared(t, "envoy-consul-dataplane.txt")
	p, err := Detect(set)
	if err != nil || p.Name != "envoy" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	// The scrape is Consul's mynginx sidecar: its inbound cluster
	// local_app carried 1758 requests; the other clusters are plumbing.
	s := findService(t, o, "mynginx")
	if got := last(t, "mynginx", s.Requests); got != 1758 {
		t.Errorf("mynginx requests %v, want 1758", got)
	}
	if len(o.Edges) != 0 || len(o.Services) != 1 {
		t.Errorf("services %+v, edges %+v: want mynginx alone", o.Services, o.Edges)
	}
}

func TestLinkerd(t *testing.T) {
	in := func(kv ...string) []string {
		return append([]string{"direction", "inbound", "target_port", "8080"}, kv...)
	}
	out := func(kv ...string) []string {
		return append([]string{"direction", "outbound", "dst_service", "books", "authority", "books.default.svc.cluster.local:7002"}, kv...)
	}
	set := setOf(
		one1(
			mk("request_total", in()...)(1, 100, 2, 130),
			mk("response_total", in("status_code", "200", "classification", "success")...)(1, 95, 2, 120),
			mk("response_total", in("status_code", "500", "classification", "failure")...)(1, 4, 2, 9),
			mk("request_total", out()...)(1, 60, 2, 90),
			mk("response_total", out("status_code", "500", "classification", "failure")...)(1, 1, 2, 2),
		),
		hist("response_latency_ms", in("status_code", "200"), []string{"1", "10", "+Inf"}, []float64{50, 90, 95}, []float64{60, 110, 120}, 300, 400),
		hist("response_latency_ms", out("status_code", "200"), []string{"1", "10", "+Inf"}, []float64{20, 50, 59}, []float64{30, 80, 88}, 200, 300),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "linkerd" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := Linkerd("web").Read(set)
	if err != nil {
		t.Fatal(err)
	}
	w := findService(t, o, "web")
	if last(t, "r", w.Requests) != 130 || last(t, "h", w.Handled) != 129 || last(t, "e", w.Errors) != 9 || w.Latency.Bounds[0] != 0.001 {
		t.Errorf("web %+v", w)
	}
	e := findEdge(t, o, "web", "books")
	if last(t, "calls", e.Calls) != 90 || e.Latency.Points[1].Sum != 0.3 {
		t.Errorf("edge %+v", e)
	}
	if b := findService(t, o, "books"); last(t, "books", b.Requests) != 90 || last(t, "books errors", b.Errors) != 2 {
		t.Errorf("books %+v", b)
	}
}

func TestLinkerdRealScrape(t *testing.T) {
	set := readShared(t, "linkerd-proxy-sample.txt")
	p, err := Detect(set)
	if err != nil || p.Name != "linkerd" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	s := findService(t, o, "local")
	if last(t, "requests", s.Requests) != 30 || last(t, "handled", s.Handled) != 29 || s.Errors != nil {
		t.Errorf("local %+v: want 30 requests, 29 handled, no failure series", s)
	}
	if s.Latency == nil || s.Latency.Points[0].Count != 29 {
		t.Errorf("latency %+v", s.Latency)
	}
}
