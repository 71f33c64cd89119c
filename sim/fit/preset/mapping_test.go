package preset

import (
	"strings"
	"testing"
)

const goodMapping = `doc = "the shop's own metrics"

[service]
requests = 'http_requests_total'
errors = 'http_requests_total{code=~"5.."}'
latency = 'http_request_duration_milliseconds'
busy = 'inflight_requests'
workers = 'worker_pool_size'
name_label = 'app'

[client]
requests = 'lb_requests_total'
good = 'lb_requests_total{code!~"5.."}'
name_label = 'lb'
target_label = 'backend'

[edge]
calls = 'client_requests_total'
retries = 'client_retries_total'
caller_label = 'app'
callee_label = 'peer'
operation_label = 'method'
`

func TestFromMapping(t *testing.T) {
	p, err := FromMapping("shop", []byte(goodMapping))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "shop" || p.Doc != "the shop's own metrics" {
		t.Errorf("preset %q %q", p.Name, p.Doc)
	}
	set := setOf(
		one1(
			mk("http_requests_total", "app", "cart", "code", "200")(1, 10, 2, 20),
			mk("http_requests_total", "app", "cart", "code", "503")(1, 1, 2, 3),
			mk("http_requests_total", "code", "200")(1, 1, 2, 2), // no app: skipped
			mk("inflight_requests", "app", "cart")(1, 2, 2, 4),
			mk("worker_pool_size", "app", "cart", "pod", "a")(1, 4, 2, 4),
			mk("worker_pool_size", "app", "cart", "pod", "b")(1, 4, 2, 4),
			mk("lb_requests_total", "lb", "edge", "backend", "cart", "code", "200")(1, 10, 2, 19),
			mk("lb_requests_total", "lb", "edge", "backend", "cart", "code", "502")(1, 1, 2, 1),
			mk("client_requests_total", "app", "cart", "peer", "auth", "method", "GET")(1, 5, 2, 8),
			mk("client_retries_total", "app", "cart", "peer", "auth", "method", "GET")(1, 0, 2, 1),
		),
		hist("http_request_duration_milliseconds", []string{"app", "cart"}, []string{"10", "100", "+Inf"}, []float64{5, 9, 11}, []float64{10, 20, 23}, 300, 700),
	)
	o, err := p.Read(set)
	if err != nil {
		t.Fatal(err)
	}
	if o.Preset != "shop" {
		t.Errorf("Preset %q", o.Preset)
	}
	cart := findService(t, o, "cart")
	if last(t, "r", cart.Requests) != 23 || last(t, "e", cart.Errors) != 3 || cart.Busy.Points[1].V != 4 || cart.Workers.Points[1].V != 8 {
		t.Errorf("cart %+v", cart)
	}
	if cart.Latency.Bounds[0] != 0.01 || cart.Latency.Points[1].Sum != 0.7 {
		t.Errorf("latency %+v: want milliseconds by name rescaled", cart.Latency)
	}
	if len(o.Clients) != 1 || o.Clients[0].Target != "cart" || last(t, "good", o.Clients[0].Good) != 19 || last(t, "sent", o.Clients[0].Requests) != 20 {
		t.Errorf("clients %+v", o.Clients)
	}
	e := findEdge(t, o, "cart", "auth")
	if e.Operation != "GET" || last(t, "calls", e.Calls) != 8 || last(t, "retries", e.Retries) != 1 {
		t.Errorf("edge %+v", e)
	}
	if !strings.Contains(strings.Join(o.Notes, "\n"), "1 series of http_requests_total skipped") {
		t.Errorf("notes %q: want the series without app noted", o.Notes)
	}
}

func TestFromMappingErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unknown key", "[service]\nrequests = 'a_total'\nrequest = 'b'\n", "x.toml:3: unknown key service.request"},
		{"unknown table", "[service]\nrequests = 'a_total'\n\n[servers]\nx = 1\n", "x.toml:4: unknown key servers"},
		{"bad regex", "[service]\n\nerrors = 'a_total{code=~\"5(\"}'\n", "x.toml:3: service.errors"},
		{"bad selector", "[edge]\ncaller_label = 'a'\ncallee_label = 'b'\ncalls = 'a total'\n", "x.toml:4: edge.calls"},
		{"syntax", "[service]\nrequests = \n", "x.toml:2: TOML"},
		{"wrong type", "[service]\nrequests = 3\n", "x.toml"},
		{"bad unit", "[service]\nlatency = 'h'\nlatency_unit = 'minutes'\n", "x.toml:3: service.latency_unit"},
		{"bad label", "[service]\nrequests = 'a_total'\nname_label = 'a-b'\n", "x.toml:3: service.name_label"},
		{"edge labels", "[edge]\ncalls = 'a_total'\n", "x.toml:1: [edge] needs"},
		{"empty", "doc = 'nothing'\n", "names no series"},
	}
	for _, c := range cases {
		_, err := FromMapping("x.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	big := make([]byte, MaxMappingBytes+1)
	if _, err := FromMapping("big", big); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("oversized mapping: error %v", err)
	}
}

func FuzzFromMapping(f *testing.F) {
	f.Add([]byte(goodMapping))
	f.Add([]byte("[service]\nrequests = 'a{x=~\"(\"}'\n"))
	f.Add([]byte("[edge]\ncaller_label='a'\ncallee_label='b'\ncalls='c{d!~\"e\"}'\n"))
	f.Add([]byte("[[service]]\n"))
	set := setOf(one1(
		mk("a", "service", "s", "x", "1")(1, 1, 2, 0),
		mk("a_bucket", "service", "s", "le", "1")(1, 1),
		mk("c", "a", "p", "b", "q", "d", "e")(1, 1),
	))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := FromMapping("fuzz", data)
		if err != nil {
			return
		}
		_, _ = p.Read(set)
	})
}
