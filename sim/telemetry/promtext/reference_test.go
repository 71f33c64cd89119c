package promtext

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/internal/pyom"
	"github.com/ressim/ressim/internal/pyom/pyomtest"
	"github.com/ressim/ressim/sim/telemetry"
)

// omSample is hand-written OpenMetrics with units, _created samples and
// exemplars, valid by the reference parser.
const omSample = `# TYPE foo_seconds counter
# UNIT foo_seconds seconds
# HELP foo_seconds Foo.
foo_seconds_total{a="x"} 1 1700000000.5
foo_seconds_created{a="x"} 1699999999 1700000000.5
foo_seconds_total{a="x"} 2 1700000001 # {trace_id="abc"} 0.5 1700000000.9
# TYPE lat histogram
lat_bucket{le="0.1"} 3 # {trace_id="q"} 0.05
lat_bucket{le="+Inf"} 4
lat_count 4
lat_sum 0.7
lat_created 12
# TYPE s summary
s{quantile="0.5"} 0.25
s_sum 3
s_count 9
# TYPE build info
build_info{version="1.2"} 1
# TYPE g gauge
g{path="C:\\x\n\"y\""} NaN
# EOF
`

// TestAgainstReferenceParser checks that, for OpenMetrics input,
// Parse finds the families (type and unit) the reference parser
// (prometheus_client) finds, with as many samples, less the _created
// samples Parse drops.
func TestAgainstReferenceParser(t *testing.T) {
	py := pyomtest.Require(t)
	excerpt, err := os.ReadFile(filepath.Join("testdata", "ressim-excerpt.om"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := []struct {
		name string
		data []byte
	}{{"ressim-excerpt.om", excerpt}, {"omSample", []byte(omSample)}}
	for _, in := range inputs {
		name, data := in.name, in.data
		t.Run(name, func(t *testing.T) {
			ref, err := pyom.Parse(context.Background(), py, bytes.NewReader(data))
			if err != nil {
				t.Fatalf("the reference parser refuses the input: %v", err)
			}
			set, err := Parse(name, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ref {
				got, ok := family(set, f.Name)
				if !ok || got.Type != f.Type || got.Unit != f.Unit {
					t.Errorf("family %s: got %+v, the reference %s %q", f.Name, got, f.Type, f.Unit)
				}
				created := strings.Count("\n"+string(data), "\n"+f.Name+"_created")
				if n := points(set, f.Name); n != f.Samples-created {
					t.Errorf("family %s: %d points, the reference %d samples less %d _created", f.Name, n, f.Samples, created)
				}
			}
			if len(ref) != len(set.Families) {
				t.Errorf("%d families, the reference %d", len(set.Families), len(ref))
			}
		})
	}
}

// points counts the points of the series of family fam.
func points(set telemetry.Set, fam string) int {
	n := 0
	for _, s := range set.Series {
		suffix, ok := strings.CutPrefix(s.Name, fam)
		switch {
		case !ok:
		case suffix == "", suffix == "_total", suffix == "_bucket", suffix == "_count",
			suffix == "_sum", suffix == "_info", suffix == "_gcount", suffix == "_gsum":
			n += len(s.Points)
		}
	}
	return n
}
