package run

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/headline"
)

// perRunKeys are the contract's metrics each run has a value of.
func perRunKeys() []headline.Key {
	return headline.Select(func(d headline.Def) bool { return d.PerRun })
}

// TestHeadlineMetricsMatchTheContract: run.Metrics are the contract's
// per-run metrics, in its order, with its names, units, labels and
// orientation; the names an experiment file may give (SweepMetrics,
// ExpectMetrics) are the contract's, so every metric a file names is one
// compare computes, or the locked-in probability.
func TestHeadlineMetricsMatchTheContract(t *testing.T) {
	keys := perRunKeys()
	if len(Metrics) != len(keys) {
		t.Fatalf("%d metrics, the contract has %d per run", len(Metrics), len(keys))
	}
	for i, m := range Metrics {
		d := keys[i].Def()
		if m.Key != keys[i] || m.Name != d.Name || m.Unit != d.Unit || m.Label != d.Label || m.HigherIsBetter != d.HigherIsBetter {
			t.Errorf("metric %d is %+v, the contract's %s %+v", i, m, keys[i], d)
		}
		if MetricOf(m.Key) != &Metrics[i] {
			t.Errorf("MetricOf(%s) is not Metrics[%d]", m.Key, i)
		}
	}
	if MetricOf(headline.LockedInProbability) != nil {
		t.Error("the locked-in probability has a per-run getter")
	}
	names := headline.Names(headline.Keys())
	if !slices.Equal(experiment.SweepMetrics, names) || !slices.Equal(experiment.ExpectMetrics, names) {
		t.Errorf("the file format names %q (sweep) and %q (expect), the contract %q", experiment.SweepMetrics, experiment.ExpectMetrics, names)
	}
}

// headlineFlags are Headline's fields that are not metrics: what the
// getters and the locked-in probability read beside them.
var headlineFlags = []string{"HasRecovery", "LockedIn", "HasFault"}

// TestEveryHeadlineFieldHasAKey: every float field of Headline is one
// per-run metric of the contract (headlineField), and no two metrics share
// one; any other field is a known flag. A field added to Headline without
// a key in sim/headline fails here (and would be missing from compare.json,
// the partial files and the file format).
func TestEveryHeadlineFieldHasAKey(t *testing.T) {
	var h Headline
	hv := reflect.ValueOf(&h).Elem()
	owner := map[uintptr]headline.Key{}
	for _, k := range perRunKeys() {
		p := headlineField(&h, k)
		if p == nil {
			t.Errorf("%s: no Headline field", k)
			continue
		}
		off := uintptr(reflect.ValueOf(p).Pointer()) - hv.Addr().Pointer()
		if o, dup := owner[off]; dup {
			t.Errorf("%s and %s read the same Headline field", o, k)
		}
		owner[off] = k
	}
	if p := headlineField(&h, headline.LockedInProbability); p != nil {
		t.Error("the locked-in probability has a Headline field; it is over replications")
	}
	for i := 0; i < hv.NumField(); i++ {
		f := hv.Type().Field(i)
		if slices.Contains(headlineFlags, f.Name) {
			continue
		}
		if f.Type.Kind() != reflect.Float64 {
			t.Errorf("Headline.%s (%s) is neither a float metric nor a known flag", f.Name, f.Type)
			continue
		}
		if _, ok := owner[f.Offset]; !ok {
			t.Errorf("Headline.%s has no key in sim/headline (add its row there and its case in headlineField)", f.Name)
		}
	}
}

// TestPartialWireNamesFromTheContract: a partial file's headline holds
// every per-run metric under the contract's wire name, each read from
// the metric's field.
func TestPartialWireNamesFromTheContract(t *testing.T) {
	var h Headline
	fs := headlineFloats(&h)
	var want []string
	for _, k := range perRunKeys() {
		w := k.Def().Wire
		want = append(want, w)
		if fs[w] != headlineField(&h, k) {
			t.Errorf("wire %q does not read %s's field", w, k)
		}
	}
	got := slices.Sorted(maps.Keys(fs))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("partial headline names %q, want %q", got, want)
	}
}

// TestRecordJSONNamesFromTheContract: compare.json and sweep.json list
// each replication's headline by the contract's names, every per-run
// metric.
func TestRecordJSONNamesFromTheContract(t *testing.T) {
	got := slices.Sorted(maps.Keys(RunRecord{}.JSON().Headline))
	want := headline.Names(perRunKeys())
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("replication headline names %q, want %q", got, want)
	}
}

// summaryHeadlineExtras are summary.json's headline fields that are not
// headline metrics.
var summaryHeadlineExtras = []string{"verdict", "peak_in_flight"}

// TestSummaryHeadlineNamesFromTheContract: summary.json's headline
// object states the metrics whose contract row names a Summary field,
// under that name, and nothing else but the known extras. Struct tags
// cannot be computed, so this test is what ties them to the contract.
func TestSummaryHeadlineNamesFromTheContract(t *testing.T) {
	var tags []string
	ty := reflect.TypeFor[HeadlineSummary]()
	for i := 0; i < ty.NumField(); i++ {
		tags = append(tags, strings.Split(ty.Field(i).Tag.Get("json"), ",")[0])
	}
	var want []string
	for _, k := range headline.Keys() {
		if s := k.Def().Summary; s != "" {
			want = append(want, s)
			if !slices.Contains(tags, s) {
				t.Errorf("%s: summary.json's headline has no field %q", k, s)
			}
		}
	}
	for _, tag := range tags {
		if !slices.Contains(want, tag) && !slices.Contains(summaryHeadlineExtras, tag) {
			t.Errorf("summary.json headline field %q is neither a contract Summary name nor a known extra", tag)
		}
	}
}
