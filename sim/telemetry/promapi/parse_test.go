package promapi

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/telemetry"
	"github.com/ressim/ressim/sim/telemetry/promtext"
)

func TestParseQueryRange(t *testing.T) {
	in := `{"status":"success","data":{"resultType":"matrix","result":[
		{"metric":{"__name__":"up","job":"p","instance":"b:9090"},"values":[[1700000000.123,"1"],[1700000001,"0"]]},
		{"metric":{"job":"p","__name__":"up","instance":"a:9090"},"values":[[1700000001,"NaN"],[1700000000,"+Inf"]]},
		{"metric":{"code":"200"},"values":[[1700000000,"-Inf"],[1700000002.5,"1e3"]]}
	]}}`
	got, err := ParseQueryRange("qr.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	o := telemetry.Origin{File: "qr.json"}
	// '{' sorts after letters: the nameless series comes last.
	ids := []string{`up{instance="a:9090",job="p"}`, `up{instance="b:9090",job="p"}`, `{code="200"}`}
	if len(got.Series) != 3 {
		t.Fatalf("%d series, want 3", len(got.Series))
	}
	for i, s := range got.Series {
		if s.ID() != ids[i] || s.Origin != o {
			t.Errorf("series %d = %s at %v, want %s at %v", i, s.ID(), s.Origin, ids[i], o)
		}
	}
	if want := []telemetry.Point{{T: 1700000000000, V: math.Inf(-1)}, {T: 1700000002500, V: 1000}}; !reflect.DeepEqual(got.Series[2].Points, want) {
		t.Errorf("rate points %+v, want %+v", got.Series[2].Points, want)
	}
	a := got.Series[0].Points
	if len(a) != 2 || a[0] != (telemetry.Point{T: 1700000000000, V: math.Inf(1)}) || a[1].T != 1700000001000 || !math.IsNaN(a[1].V) {
		t.Errorf("unsorted input not sorted: %+v", a)
	}
	if want := []telemetry.Point{{T: 1700000000123, V: 1}, {T: 1700000001000, V: 0}}; !reflect.DeepEqual(got.Series[1].Points, want) {
		t.Errorf("points %+v, want %+v", got.Series[1].Points, want)
	}
}

func TestParseEmpty(t *testing.T) {
	set, err := ParseQueryRange("e.json", []byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"a"},"values":[]}]}}`))
	if err != nil || len(set.Series) != 0 {
		t.Fatalf("got %+v, %v; want no series", set.Series, err)
	}
}

func TestReadFileErrors(t *testing.T) {
	if _, err := ReadFile(filepath.Join("testdata", "absent.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
	if _, err := ReadFile("testdata"); !errors.Is(err, input.ErrDirectory) {
		t.Errorf("directory: %v", err)
	}
}

func TestParseVector(t *testing.T) {
	set, err := ReadFile(filepath.Join("testdata", "query-vector.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []telemetry.Series{{
		Name:   "scrape_duration_seconds",
		Labels: []telemetry.Label{{Name: "instance", Value: "127.0.0.1:19391"}, {Name: "job", Value: "prometheus"}},
		Points: []telemetry.Point{{T: 1796579677137, V: 0.00730816}},
		Origin: telemetry.Origin{File: filepath.Join("testdata", "query-vector.json")},
	}}
	if !reflect.DeepEqual(set.Series, want) {
		t.Errorf("got %+v\nwant %+v", set.Series, want)
	}
}

func TestParseSavedRate(t *testing.T) {
	set, err := ReadFile(filepath.Join("testdata", "query-range-rate.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Series) != 4 {
		t.Fatalf("%d series, want 4", len(set.Series))
	}
	s := set.Series[2]
	if s.Name != "" || s.Label("handler") != "/metrics" || len(s.Points) != 5 ||
		s.Points[1] != (telemetry.Point{T: 1796579669500, V: 0.9946}) {
		t.Errorf("series %s: %+v", s.ID(), s.Points)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `{"status":`, "not a Prometheus API answer"},
		{"bad status", `{"status":"maybe"}`, `status "maybe"`},
		{"no data", `{"status":"success"}`, "no data"},
		{"scalar", `{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}`, `"scalar" is not series`},
		{"bad value", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"x"]]}]}}`, `invalid sample value "x"`},
		{"number value", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,2]]}]}}`, "sample value"},
		{"bad time", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[["x","1"]]}]}}`, "sample time"},
		{"huge time", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1e300,"1"]]}]}}`, "invalid sample time"},
		{"short pair", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1]]}]}}`, "1 elements"},
		{"duplicate time", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"a"},"values":[[1,"1"],[1,"2"]]}]}}`, "a has two samples at time 1000 ms"},
		{"duplicate series", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":[1,"1"]},{"metric":{"a":"1"},"value":[2,"1"]}]}}`, "given twice"},
		{"vector without value", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{}}]}}`, "has no value"},
		{"native histogram", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"histograms":[[1,{"count":"1"}]]}]}}`, "native histograms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseQueryRange("a.json", []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "a.json: ") {
				t.Errorf("err = %v, want a.json: ...%s...", err, tc.want)
			}
		})
	}
}

func TestParseAPIError(t *testing.T) {
	_, err := ParseQueryRange("e.json", []byte(`{"status":"error","errorType":"bad_data","error":"1:4: parse error: unclosed left parenthesis"}`))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Type != "bad_data" || ae.Msg != "1:4: parse error: unclosed left parenthesis" {
		t.Fatalf("err = %v, want an *APIError", err)
	}
}

func TestParseBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"vector","result":[`)
	for i := range promtext.DefaultMaxSeries + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"metric":{"i":"` + strconv.Itoa(i) + `"},"value":[1,"1"]}`)
	}
	b.WriteString(`]}}`)
	_, err := ParseQueryRange("big.json", []byte(b.String()))
	var be *promtext.BudgetError
	if !errors.As(err, &be) || be.Budget != "MaxSeries" {
		t.Fatalf("err = %v, want the MaxSeries budget", err)
	}
}
