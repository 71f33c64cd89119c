package promtext

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
)

// find returns the series with the given ID, failing the test if absent.
func find(t *testing.T, set telemetry.Set, id string) telemetry.Series {
	t.Helper()
	for _, s := range set.Series {
		if s.ID() == id {
			return s
		}
	}
	t.Fatalf("no series %s among %d", id, len(set.Series))
	return telemetry.Series{}
}

func family(set telemetry.Set, name string) (telemetry.Family, bool) {
	for _, f := range set.Families {
		if f.Name == name {
			return f, true
		}
	}
	return telemetry.Family{}, false
}

// checkSet fails the test unless the set is sorted and each series'
// times increase.
func checkSet(t testing.TB, set telemetry.Set) {
	t.Helper()
	for i, s := range set.Series {
		if i > 0 && set.Series[i-1].ID() >= s.ID() {
			t.Fatalf("series %s before %s", set.Series[i-1].ID(), s.ID())
		}
		if len(s.Points) == 0 {
			t.Fatalf("series %s has no points", s.ID())
		}
		for j := 1; j < len(s.Points); j++ {
			if s.Points[j-1].T >= s.Points[j].T {
				t.Fatalf("series %s: time %d then %d", s.ID(), s.Points[j-1].T, s.Points[j].T)
			}
		}
	}
}

func TestRessimExcerpt(t *testing.T) {
	set, err := ReadFile(filepath.Join("testdata", "ressim-excerpt.om"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, set)
	if got := len(set.Series); got != 4+1+16+2 {
		t.Errorf("%d series, want 23", got)
	}
	g := find(t, set, "ressim_in_flight_requests")
	if len(g.Points) != 60 || g.Points[0] != (telemetry.Point{T: 1767225601000, V: 5}) || g.Origin.Line != 4 {
		t.Errorf("in-flight gauge: %d points, first %+v, origin %v", len(g.Points), g.Points[0], g.Origin)
	}
	c := find(t, set, `ressim_client_requests_total{client="users"}`)
	if len(c.Points) != 60 || c.Points[1].V != 187 || c.Points[1].T != 1767225601000 {
		t.Errorf("requests counter: %d points, second %+v", len(c.Points), c.Points[1])
	}
	b := find(t, set, `ressim_client_request_duration_seconds_bucket{client="users",le="+Inf"}`)
	if len(b.Points) != 6 || b.Points[1].V != 182 {
		t.Errorf("+Inf bucket: %+v", b.Points)
	}
	sum := find(t, set, `ressim_client_request_duration_seconds_sum{client="users"}`)
	if sum.Points[1].V != 5.011602452 {
		t.Errorf("sum at 1s = %v, want 5.011602452", sum.Points[1].V)
	}
	want := map[string]telemetry.Family{
		"ressim_in_flight_requests":              {Name: "ressim_in_flight_requests", Type: "gauge", Unit: "requests"},
		"ressim_client_requests":                 {Name: "ressim_client_requests", Type: "counter"},
		"ressim_client_request_duration_seconds": {Name: "ressim_client_request_duration_seconds", Type: "histogram", Unit: "seconds"},
	}
	for name, w := range want {
		if f, ok := family(set, name); !ok || f != w {
			t.Errorf("family %s = %+v, want %+v", name, f, w)
		}
	}
}

func TestPrometheusTestdata(t *testing.T) {
	set, err := ReadFile(filepath.Join("testdata", "prometheus.prom"), Options{DefaultTime: 1_700_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, set)
	h := find(t, set, `http_requests_total{code="200",method="post"}`)
	if len(h.Points) != 2 || h.Points[1] != (telemetry.Point{T: 1395066423000, V: 1029}) {
		t.Errorf("http_requests_total: %+v", h.Points)
	}
	m := find(t, set, `msdos_file_access_time_seconds{error="Cannot find file:\n\"FILE.TXT\"",path="C:\\DIR\\FILE.TXT"}`)
	if m.Points[0] != (telemetry.Point{T: 1_700_000_000_000, V: 1.458255915e9}) {
		t.Errorf("escaped series: %+v", m.Points)
	}
	w := find(t, set, `something_weird{problem="division by zero"}`)
	if w.Points[0].T != -3982045 || !math.IsInf(w.Points[0].V, 1) {
		t.Errorf("weird: %+v", w.Points)
	}
	q := find(t, set, `go_gc_duration_seconds{quantile="0.5"}`)
	if q.Points[0].V != 0.000136459 {
		t.Errorf("summary quantile: %+v", q.Points)
	}
	if f, _ := family(set, "prometheus_http_request_duration_seconds"); f.Type != "histogram" {
		t.Errorf("histogram family: %+v", f)
	}
}

func TestDumpTestdata(t *testing.T) {
	set, err := ReadFile(filepath.Join("testdata", "tsdb-dump.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, set)
	if len(set.Families) != 0 {
		t.Errorf("families from a dump: %+v", set.Families)
	}
	up := find(t, set, `up{instance="127.0.0.1:19391",job="prometheus"}`)
	if len(up.Points) != 5 || up.Points[0] != (telemetry.Point{T: 1796579664527, V: 1}) || up.Origin.Line != 1 {
		t.Errorf("up: %+v at %v", up.Points, up.Origin)
	}
	b := find(t, set, `prometheus_http_request_duration_seconds_bucket{handler="/metrics",instance="127.0.0.1:19391",job="prometheus",le="+Inf"}`)
	if len(b.Points) != 3 || b.Points[2].V != 13 {
		t.Errorf("bucket: %+v", b.Points)
	}
}

// TestSharedScrapes reads real scrapes kept beside the repository (in
// shared/telemetry/prom, not committed); it is skipped without them.
func TestSharedScrapes(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "telemetry", "prom")
	tests := []struct {
		file   string
		series int
		id     string
		v      float64
		family telemetry.Family
	}{
		{"traefik-v2.2.1.txt", 1164, `traefik_entrypoint_open_connections{entrypoint="web",method="POST",protocol="http"}`, 4,
			telemetry.Family{Name: "traefik_entrypoint_request_duration_seconds", Type: "histogram"}},
		{"envoy-consul-dataplane.txt", 1317, `consul_dataplane_connect_duration_count`, 1,
			telemetry.Family{Name: "consul_dataplane_connect_duration", Type: "summary"}},
		{"linkerd-proxy-sample.txt", 199, `identity_cert_refresh_count`, 1,
			telemetry.Family{Name: "request_total", Type: "counter"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				t.Skipf("%s absent", path)
			}
			set, err := ReadFile(path, Options{DefaultTime: 42})
			if err != nil {
				t.Fatal(err)
			}
			checkSet(t, set)
			if len(set.Series) != tc.series {
				t.Errorf("%d series, want %d", len(set.Series), tc.series)
			}
			for _, s := range set.Series {
				if len(s.Points) != 1 || s.Points[0].T != 42 {
					t.Fatalf("%s: %+v, want one point at the default time", s.ID(), s.Points)
				}
			}
			if s := find(t, set, tc.id); s.Points[0].V != tc.v {
				t.Errorf("%s = %v, want %v", tc.id, s.Points[0].V, tc.v)
			}
			if f, ok := family(set, tc.family.Name); !ok || f != tc.family {
				t.Errorf("family %+v, want %+v", f, tc.family)
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	if _, err := ReadFile(filepath.Join("testdata", "absent.prom"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
	if _, err := ReadFile("testdata", Options{}); err == nil {
		t.Error("a directory was read")
	}
}
