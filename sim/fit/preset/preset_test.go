package preset

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
)

func TestAllOrderAndByName(t *testing.T) {
	want := []string{"ressim", "istio", "otel-http", "otel-rpc", "grpc-prometheus", "envoy", "linkerd"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("%d presets, want %d", len(all), len(want))
	}
	for i, p := range all {
		if p.Name != want[i] || p.Doc == "" || len(p.looks) == 0 {
			t.Errorf("preset %d = %q (doc %q), want %q", i, p.Name, p.Doc, want[i])
		}
		if q, ok := ByName(p.Name); !ok || q.Name != p.Name {
			t.Errorf("ByName(%q) = %q, %v", p.Name, q.Name, ok)
		}
	}
	for _, bad := range []string{"", "nope", "envoy:", "Istio"} {
		if _, ok := ByName(bad); ok {
			t.Errorf("ByName(%q) found a preset", bad)
		}
	}
	if p, ok := ByName("linkerd:web"); !ok || p.Name != "linkerd:web" {
		t.Errorf("ByName(linkerd:web) = %q, %v", p.Name, ok)
	}
}

func TestDetectNothing(t *testing.T) {
	set := setOf(one1(mk("up", "job", "x")(1, 1)))
	_, err := Detect(set)
	if err == nil || !strings.Contains(err.Error(), "istio_requests_total") || !strings.Contains(err.Error(), "envoy_cluster_upstream_rq_total") {
		t.Fatalf("Detect error %v: want the series looked for listed", err)
	}
	_, err = ressimPreset().Read(set)
	if err == nil || !strings.Contains(err.Error(), "ressim_service_requests_total") {
		t.Fatalf("Read error %v: want what was looked for", err)
	}
	if _, err := (Preset{}).Read(set); err == nil {
		t.Fatal("the zero Preset read something")
	}
}

func TestDetectMostMatchesWins(t *testing.T) {
	// One istio series against two linkerd ones: linkerd wins although
	// istio comes first in All.
	set := setOf(one1(
		mk("istio_requests_total", "reporter", "destination", "destination_workload", "a")(1, 1),
		mk("request_total", "direction", "inbound")(1, 1),
		mk("response_total", "direction", "inbound", "classification", "success")(1, 1),
	))
	if p, err := Detect(set); err != nil || p.Name != "linkerd" {
		t.Fatalf("Detect = %q, %v; want linkerd", p.Name, err)
	}
	// A plain request_total without direction is not linkerd's.
	set = setOf(one1(mk("request_total", "code", "200")(1, 1)))
	if p, err := Detect(set); err == nil {
		t.Fatalf("Detect = %q on a bare request_total", p.Name)
	}
}

func TestHistogramWithoutInfBucket(t *testing.T) {
	set := setOf(
		one1(
			mk("ressim_service_request_duration_seconds_bucket", "service", "a", "le", "0.1")(1, 3, 2, 5),
			mk("ressim_service_request_duration_seconds_bucket", "service", "a", "le", "1")(1, 4, 2, 6),
			mk("ressim_service_request_duration_seconds_count", "service", "a")(1, 6, 2, 9),
		),
	)
	o, err := ressimPreset().Read(set)
	if err != nil {
		t.Fatal(err)
	}
	h := o.Services[0].Latency
	if len(h.Bounds) != 3 || !math.IsInf(h.Bounds[2], 1) || h.Points[1].Counts[2] != 9 || !math.IsNaN(h.Points[1].Sum) {
		t.Errorf("histogram %+v: want +Inf from _count and an unknown sum", h)
	}
	bad := setOf(one1(mk("ressim_service_request_duration_seconds_bucket", "service", "a", "le", "x")(1, 1)))
	if _, err := ressimPreset().Read(bad); err == nil || !strings.Contains(err.Error(), `le="x"`) {
		t.Errorf("bad le: error %v", err)
	}
}

func TestCounterSharedTimes(t *testing.T) {
	set := setOf(one1(
		mk("ressim_service_requests_total", "service", "a", "instance", "1")(1, 1, 2, 2, 3, 3),
		mk("ressim_service_requests_total", "service", "a", "instance", "2")(2, 10, 3, 20, 4, 30),
	))
	o, err := ressimPreset().Read(set)
	if err != nil {
		t.Fatal(err)
	}
	c := o.Services[0].Requests
	if len(c.Points) != 2 || c.Points[0] != (telemetry.Point{T: 2000, V: 12}) || c.Points[1] != (telemetry.Point{T: 3000, V: 23}) {
		t.Errorf("points %v: want the sum at the shared times 2 s and 3 s", c.Points)
	}
	if len(c.Refs) != 2 || c.Refs[0].ID >= c.Refs[1].ID {
		t.Errorf("refs %+v: want both, sorted", c.Refs)
	}
}

func TestSeriesPerRoleCap(t *testing.T) {
	var s telemetry.Set
	for i := 0; i <= MaxSeriesPerRole; i++ {
		s.Series = append(s.Series, mk("ressim_service_requests_total", "service", "a", "pod", fmt.Sprint(i))(1, 1))
	}
	_, err := ressimPreset().Read(s)
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("error %v: want the cap", err)
	}
}

func TestParseSelector(t *testing.T) {
	good := map[string]string{
		`a_total`:                              `a_total`,
		` a{ x = "1" , y=~"b.*",z!="",w!~"q"}`: `a{x="1",y=~"b.*",z!="",w!~"q"}`,
		`a{}`:                                  `a`,
		`a{x="\"q\""}`:                         `a{x="\"q\""}`,
	}
	for in, want := range good {
		s, err := parseSelector(in)
		if err != nil || s.String() != want {
			t.Errorf("parseSelector(%q) = %q, %v; want %q", in, s.String(), err, want)
		}
	}
	for _, in := range []string{``, `{x="1"}`, `a{x="1"`, `a{x=1}`, `a{x="1" y="2"}`, `a{x=~"("}`, `a{1x="1"}`, `a b`, `a{x<"1"}`, `a{x='1'}`} {
		if _, err := parseSelector(in); err == nil {
			t.Errorf("parseSelector(%q) accepted", in)
		}
	}
	s := mustSelector(`m{code=~"5.."}`)
	if !s.matches(&telemetry.Series{Name: "m", Labels: []telemetry.Label{{Name: "code", Value: "503"}}}) ||
		s.matches(&telemetry.Series{Name: "m", Labels: []telemetry.Label{{Name: "code", Value: "5031"}}}) {
		t.Error("regex matcher is not anchored")
	}
}

func TestHostService(t *testing.T) {
	for in, want := range map[string]string{
		"reviews.default.svc.cluster.local": "reviews",
		"books:7002":                        "books",
		"10.0.0.1:80":                       "10.0.0.1",
		"":                                  "",
		"cart":                              "cart",
	} {
		if got := hostService(in); got != want {
			t.Errorf("hostService(%q) = %q, want %q", in, got, want)
		}
	}
}
