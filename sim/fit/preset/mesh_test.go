package preset

import (
	"math"
	"strings"
	"testing"
)

func TestIstio(t *testing.T) {
	les := []string{"5", "10", "50", "+Inf"}
	dst := func(src, dstw, code string) []string {
		return []string{"reporter", "destination", "source_workload", src, "destination_workload", dstw, "response_code", code}
	}
	srcR := func(src, dstw string) []string {
		return []string{"reporter", "source", "source_workload", src, "destination_workload", dstw, "response_code", "200"}
	}
	set := setOf(
		one1(
			mk("istio_requests_total", dst("unknown", "productpage", "200")...)(1, 100, 2, 160),
			mk("istio_requests_total", dst("unknown", "productpage", "503")...)(1, 2, 2, 5),
			mk("istio_requests_total", dst("productpage", "reviews", "200")...)(1, 50, 2, 20), // reset
			mk("istio_requests_total", srcR("productpage", "reviews")...)(1, 50, 2, 80),
		),
		hist("istio_request_duration_milliseconds", dst("unknown", "productpage", "200"), les, []float64{10, 60, 100, 100}, []float64{20, 90, 160, 160}, 1200, 2100),
		hist("istio_request_duration_milliseconds", srcR("productpage", "reviews"), les, []float64{5, 40, 50, 50}, []float64{8, 70, 80, 80}, 400, 650),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "istio" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	pp := findService(t, o, "productpage")
	if got := last(t, "requests", pp.Requests); got != 165 {
		t.Errorf("productpage requests %v, want 165", got)
	}
	if got := last(t, "errors", pp.Errors); got != 5 {
		t.Errorf("productpage errors %v, want 5", got)
	}
	if b := pp.Latency.Bounds; b[0] != 0.005 || b[2] != 0.05 || !math.IsInf(b[3], 1) {
		t.Errorf("bounds %v: want milliseconds rescaled to seconds", b)
	}
	if s := pp.Latency.Points[1].Sum; math.Abs(s-2.1) > 1e-9 {
		t.Errorf("sum %v s, want 2.1", s)
	}
	if got := last(t, "reviews", findService(t, o, "reviews").Requests); got != 70 {
		t.Errorf("reviews requests %v, want the reset undone: 70", got)
	}
	if len(o.Clients) != 1 || o.Clients[0].Name != "unknown" || o.Clients[0].Target != "productpage" || last(t, "client", o.Clients[0].Requests) != 165 {
		t.Errorf("clients %+v", o.Clients)
	}
	e := findEdge(t, o, "productpage", "reviews")
	if last(t, "calls", e.Calls) != 80 || e.Latency == nil || e.Latency.Bounds[1] != 0.01 {
		t.Errorf("edge %+v", e)
	}
	if len(o.Edges) != 1 {
		t.Errorf("edges %+v", o.Edges)
	}
	if !strings.Contains(strings.Join(o.Notes, "\n"), "milliseconds") {
		t.Errorf("notes %q: want the rescaling noted", o.Notes)
	}
}

func TestOTelHTTP(t *testing.T) {
	les := []string{"0.005", "0.05", "+Inf"}
	set := setOf(
		hist("http_server_request_duration_seconds", []string{"job", "cart", "http_response_status_code", "200"}, les, []float64{1, 8, 10}, []float64{2, 15, 20}, 0.2, 0.4),
		hist("http_server_request_duration_seconds", []string{"job", "cart", "http_response_status_code", "500"}, les, []float64{0, 1, 1}, []float64{0, 2, 3}, 0.01, 0.05),
		hist("http_server_duration_milliseconds", []string{"service_name", "auth", "http_status_code", "200"}, []string{"5", "50", "+Inf"}, []float64{1, 2, 3}, []float64{2, 4, 6}, 30, 60),
		hist("http_client_request_duration_seconds", []string{"job", "cart", "server_address", "auth.default.svc.cluster.local"}, les, []float64{1, 2, 3}, []float64{2, 4, 6}, 0.03, 0.06),
		one1(mk("http_server_active_requests", "job", "cart", "http_route", "/a")(1, 2, 2, 3),
			mk("http_server_active_requests", "job", "cart", "http_route", "/b")(1, 1, 2, 1)),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "otel-http" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	cart := findService(t, o, "cart")
	if last(t, "requests", cart.Requests) != 23 || last(t, "errors", cart.Errors) != 3 {
		t.Errorf("cart %v requests, %v errors; want 23, 3", last(t, "r", cart.Requests), last(t, "e", cart.Errors))
	}
	if got := cart.Latency.Points[1].Counts; got[0] != 2 || got[1] != 17 || got[2] != 23 {
		t.Errorf("cart counts %v: want 2 17 23 summed over status codes", got)
	}
	if cart.Busy == nil || cart.Busy.Points[1].V != 4 {
		t.Errorf("cart busy %+v, want 4", cart.Busy)
	}
	auth := findService(t, o, "auth")
	if auth.Latency.Bounds[1] != 0.05 || auth.Latency.Points[1].Sum != 0.06 {
		t.Errorf("auth latency %+v: want milliseconds rescaled", auth.Latency)
	}
	if e := findEdge(t, o, "cart", "auth"); last(t, "calls", e.Calls) != 6 {
		t.Errorf("edge %+v", e)
	}
}

func TestOTelRPC(t *testing.T) {
	les := []string{"1", "10", "+Inf"}
	set := setOf(
		hist("rpc_server_duration_milliseconds", []string{"job", "greeter", "rpc_service", "hello.Greeter", "rpc_grpc_status_code", "0"}, les, []float64{1, 4, 5}, []float64{2, 8, 10}, 20, 40),
		hist("rpc_server_duration_milliseconds", []string{"job", "greeter", "rpc_service", "hello.Greeter", "rpc_grpc_status_code", "14"}, les, []float64{0, 0, 1}, []float64{0, 0, 2}, 20, 40),
		hist("rpc_client_duration_milliseconds", []string{"job", "front", "rpc_service", "hello.Greeter", "rpc_method", "SayHello"}, les, []float64{1, 4, 6}, []float64{2, 8, 12}, 20, 40),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "otel-rpc" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	g := findService(t, o, "greeter")
	if last(t, "requests", g.Requests) != 12 || last(t, "errors", g.Errors) != 2 || g.Latency.Bounds[0] != 0.001 {
		t.Errorf("greeter %+v", g)
	}
	e := findEdge(t, o, "front", "hello.Greeter")
	if e.Operation != "SayHello" || last(t, "calls", e.Calls) != 12 {
		t.Errorf("edge %+v", e)
	}
}

func TestGRPCPrometheus(t *testing.T) {
	lb := func(kv ...string) []string {
		return append([]string{"job", "greeter", "grpc_service", "hello.Greeter", "grpc_method", "SayHello", "grpc_type", "unary"}, kv...)
	}
	set := setOf(
		one1(
			mk("grpc_server_started_total", lb()...)(1, 100, 2, 150),
			mk("grpc_server_handled_total", lb("grpc_code", "OK")...)(1, 90, 2, 140),
			mk("grpc_server_handled_total", lb("grpc_code", "NotFound")...)(1, 5, 2, 5),
			mk("grpc_server_handled_total", lb("grpc_code", "Unavailable")...)(1, 4, 2, 5),
			mk("grpc_client_started_total", "job", "front", "grpc_service", "hello.Greeter", "grpc_method", "SayHello", "grpc_type", "unary")(1, 7, 2, 9),
		),
		hist("grpc_server_handling_seconds", lb(), []string{"0.005", "0.1", "+Inf"}, []float64{50, 90, 99}, []float64{70, 140, 150}, 2, 3),
	)
	p, err := Detect(set)
	if err != nil || p.Name != "grpc-prometheus" {
		t.Fatalf("Detect = %q, %v", p.Name, err)
	}
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	g := findService(t, o, "greeter")
	if last(t, "r", g.Requests) != 150 || last(t, "h", g.Handled) != 150 || last(t, "e", g.Errors) != 5 || g.Latency.Bounds[0] != 0.005 {
		t.Errorf("greeter %+v", g)
	}
	if e := findEdge(t, o, "front", "hello.Greeter"); last(t, "calls", e.Calls) != 9 || e.Operation != "SayHello" {
		t.Errorf("edge %+v", e)
	}
}
