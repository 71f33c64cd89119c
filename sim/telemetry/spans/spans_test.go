package spans

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
)

func read(t *testing.T, file string, want Format) []telemetry.Span {
	t.Helper()
	got, f, err := ReadFile(filepath.Join("testdata", file), Options{})
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", file, err)
	}
	if f != want {
		t.Fatalf("ReadFile(%s) format = %q, want %q", file, f, want)
	}
	return got
}

func check(t *testing.T, got, want []telemetry.Span) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d spans, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("span %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestOTLP(t *testing.T) {
	file := filepath.Join("testdata", "otlp.json")
	o := telemetry.Origin{File: file}
	const tr = "5b8efff798038103d269b633813fc60c"
	check(t, read(t, "otlp.json", OTLP), []telemetry.Span{
		{TraceID: tr, SpanID: "00000000000000a1", Service: "frontend", Operation: "GET /", Kind: telemetry.KindServer,
			Start: 1700000000000000000, End: 1700000000100000000, Origin: o},
		{TraceID: tr, SpanID: "00000000000000a2", ParentID: "00000000000000a1", Service: "frontend", Operation: "GetProduct",
			Kind: telemetry.KindClient, Peer: "catalog", Start: 1700000000010000000, End: 1700000000040000000, Error: true, Origin: o},
		{TraceID: tr, SpanID: "00000000000000b1", ParentID: "00000000000000a2", Service: "catalog", Operation: "GetProduct",
			Kind: telemetry.KindServer, Start: 1700000000015000000, End: 1700000000035000000, Error: true, Origin: o},
	})
}

func TestOTLPLines(t *testing.T) {
	file := filepath.Join("testdata", "otlp-lines.jsonl")
	const tr = "0af7651916cd43dd8448eb211c80319c"
	check(t, read(t, "otlp-lines.jsonl", OTLP), []telemetry.Span{
		{TraceID: tr, SpanID: "b7ad6b7169203331", Service: "api", Operation: "POST /order", Kind: telemetry.KindServer,
			Start: 1700000001000000000, End: 1700000001200000000, Origin: telemetry.Origin{File: file, Line: 1}},
		{TraceID: tr, SpanID: "c7ad6b7169203332", ParentID: "b7ad6b7169203331", Service: "db", Operation: "INSERT", Kind: telemetry.KindServer,
			Start: 1700000001050000000, End: 1700000001150000000, Origin: telemetry.Origin{File: file, Line: 2}},
	})
}

func TestZipkin(t *testing.T) {
	file := filepath.Join("testdata", "zipkin.json")
	at := func(l int) telemetry.Origin { return telemetry.Origin{File: file, Line: l} }
	const tr, root = "a03ee8fff1dcd9b9", "f5f268651b2a2b34"
	check(t, read(t, "zipkin.json", Zipkin), []telemetry.Span{
		// The unfinished span has no timestamp: untimed, first by Start.
		{TraceID: tr, SpanID: "25fc03927f0f68df", ParentID: root, Service: "mobile_api", Operation: "unfinished", Origin: at(45)},
		{TraceID: tr, SpanID: root, Service: "mobile_api", Operation: "get /home", Kind: telemetry.KindServer,
			Start: 1571896375300000000, End: 1571896375340000000, Origin: at(2)},
		{TraceID: tr, SpanID: "7a778764a0d0b594", ParentID: root, Service: "mobile_api", Operation: "get", Kind: telemetry.KindClient,
			Peer: "spectre", Start: 1571896375310000000, End: 1571896375313000000, Origin: at(11)},
		{TraceID: tr, SpanID: "7a778764a0d0b594", ParentID: root, Service: "spectre", Operation: "get", Kind: telemetry.KindServer,
			Start: 1571896375310740000, End: 1571896375312230000, Error: true, Origin: at(22)},
		{TraceID: tr, SpanID: "15fc03927f0f68df", ParentID: root, Service: "mobile_api", Operation: "get", Kind: telemetry.KindClient,
			Peer: "memcache", Start: 1571896375315000000, End: 1571896375317000000, Origin: at(34)},
	})
}

func TestJaeger(t *testing.T) {
	o := telemetry.Origin{File: filepath.Join("testdata", "jaeger.json")}
	const tr = "1f2e3d4c5b6a7988"
	check(t, read(t, "jaeger.json", Jaeger), []telemetry.Span{
		{TraceID: tr, SpanID: "0000000000000001", Service: "frontend", Operation: "HTTP GET /dispatch", Kind: telemetry.KindServer,
			Start: 1700000002000000000, End: 1700000002050000000, Origin: o},
		{TraceID: tr, SpanID: "0000000000000003", ParentID: "0000000000000001", Service: "driver", Operation: "/driver.DriverService/FindNearest",
			Kind: telemetry.KindServer, Start: 1700000002005000000, End: 1700000002035000000, Origin: o},
		{TraceID: tr, SpanID: "0000000000000002", ParentID: "0000000000000001", Service: "frontend", Operation: "FindDriverIDs",
			Kind: telemetry.KindClient, Peer: "redis", Error: true, Start: 1700000002010000000, End: 1700000002030000000, Origin: o},
	})
}

func TestCSV(t *testing.T) {
	file := filepath.Join("testdata", "spans.csv")
	at := func(l int) telemetry.Origin { return telemetry.Origin{File: file, Line: l} }
	check(t, read(t, "spans.csv", CSV), []telemetry.Span{
		// No EndTimeUnixNano: End = Start + Duration (µs).
		{TraceID: "a1", SpanID: "00000000000000a1", Service: "ts-gateway-service", Operation: "/*",
			Start: 1675092604119000000, End: 1675092604299039000, Origin: at(5)},
		{TraceID: "b1", SpanID: "0000000000000001", Service: "frontend", Operation: "hipstershop.Frontend/Recv.",
			Start: 1661142301000000000, End: 1661142301050000000, Origin: at(3)},
		{TraceID: "b1", SpanID: "0000000000000002", ParentID: "0000000000000001", Service: "frontend", Operation: "hipstershop.CartService/GetCart",
			Start: 1661142301010000000, End: 1661142301020000000, Origin: at(2)},
		{TraceID: "b1", SpanID: "0000000000000003", ParentID: "0000000000000002", Service: "cartservice", Operation: "hipstershop.CartService/GetCart",
			Start: 1661142301012000000, End: 1661142301018000000, Origin: at(4)},
	})
}

func TestPodService(t *testing.T) {
	for pod, want := range map[string]string{
		"frontend-579b9bff58-t2dbm":              "frontend",
		"ts-gateway-service-6f6cfc45b-d9pnv":     "ts-gateway-service",
		"recommendationservice-6cfdd55578-gfj6q": "recommendationservice",
		"ts-gateway-service":                     "ts-gateway-service",
		"redis-0":                                "redis-0",
		"my-service-abcdefg-hijkl":               "my-service-abcdefg-hijkl",
		"":                                       "",
	} {
		if got := PodService(pod); got != want {
			t.Errorf("PodService(%q) = %q, want %q", pod, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "  \n", "empty"},
		{"syntax", "{\n  \"resourceSpans\": [\n    {,}\n  ]\n}", "x.json:3:6"},
		{"zipkin type", "[\n {\"traceId\": \"a\", \"id\": \"b\",\n  \"timestamp\": true}\n]", "x.json:2: span [0]: json: cannot unmarshal non-integer true"},
		{"zipkin negative", "[\n{\"traceId\":\"a\",\"id\":\"b\",\"timestamp\":10,\"duration\":-1}]", "x.json:2: span [0]"},
		{"zipkin trailing", "[]\n[]", "text after"},
		{"otlp end before start", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2","startTimeUnixNano":"9","endTimeUnixNano":"5"}]}]}]}`,
			"resourceSpans[0].scopeSpans[0].spans[0]: span 2 ends 4 ns before it starts"},
		{"otlp kind", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1","spanId":"2","kind":9}]}]}]}`, "span kind 9"},
		{"otlp time", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[\n{\"traceId\":\"1\",\"spanId\":\"2\",\"startTimeUnixNano\":\"soon\"}]}]}]}", "startTimeUnixNano"},
		{"otlp lines", "{\"resourceSpans\":[]}\n{\"resourceSpans\":[}\n", "x.json:2:"},
		{"metrics", `{"resourceMetrics":[]}`, "not traces"},
		{"other object", `{"b":1,"a":2}`, "keys a, b"},
		{"jaeger process", `{"data":[{"spans":[{"traceID":"1","spanID":"2","processID":"p9"}],"processes":{}}]}`, `process "p9"`},
		{"csv header", "time,value\n1,2\n", "x.json:1: not a span file"},
		{"csv start", "TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\nt,s,root,p,x,1\n", "x.json:2: StartTimeUnixNano"},
		{"csv end before start", "TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\nt,s,root,p,5,1\n", "x.json:2: span s ends 4 ns before"},
		{"csv fields", "TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\nt,s,root,p,5,6,7\n", "wrong number of fields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Parse("x.json", []byte(c.data), Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", c.data, err, c.want)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	data := []byte("TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\nt,a,root,p,1,2\nt,b,a,p,1,2\n")
	if _, _, err := Parse("x", data, Options{MaxSpans: 1}); err == nil || !strings.Contains(err.Error(), "more than 1 spans") {
		t.Errorf("MaxSpans 1: error = %v", err)
	}
	if _, _, err := Parse("x", data, Options{MaxBytes: 10}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("MaxBytes 10: error = %v", err)
	}
	if got, _, err := Parse("x", data, Options{MaxSpans: 2}); err != nil || len(got) != 2 {
		t.Errorf("MaxSpans 2: %d spans, %v", len(got), err)
	}
}

// TestOrderIndependent checks that the output does not depend on the
// order of the input's lines.
func TestOrderIndependent(t *testing.T) {
	head := "TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\n"
	a := []string{"t2,a,root,p,5,9\n", "t1,b,root,p,5,9\n", "t1,a,root,p,5,9\n", "t1,c,root,p,1,9\n"}
	got, _, err := Parse("x", []byte(head+strings.Join(a, "")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got {
		ids = append(ids, s.TraceID+"/"+s.SpanID)
	}
	if want := "t1/c t1/a t1/b t2/a"; strings.Join(ids, " ") != want {
		t.Errorf("order %v, want %s", ids, want)
	}
}
