package experiments_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/topology"
)

// TestSeriesContract holds the time-series metric contract over the
// bundled experiments (their bases and variants): every column a run
// records is a registered topology.SeriesKey of the right owner and unit;
// every registered key is recorded by some bundled experiment, so none is
// dead; and every default figure draws only recorded series (figures panic
// on a series the run lacks, rather than drawing a flat zero line).
func TestSeriesContract(t *testing.T) {
	files, err := filepath.Glob("*.toml")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[topology.SeriesKey]bool{}
	for _, k := range topology.SeriesKeys() {
		keys[k] = true
	}
	seen := map[topology.SeriesKey]bool{}
	check := func(f string, res *topology.Result) {
		owners := map[string]topology.SeriesOwner{topology.TotalEntity: topology.OwnerTotal}
		for _, c := range res.Clients {
			owners[c.Name] = topology.OwnerClient
		}
		for _, s := range res.Services {
			owners[s.Name] = topology.OwnerService
		}
		for _, c := range res.Series.Columns() {
			o, ok := owners[c.Entity()]
			if !ok {
				o = topology.OwnerSite
			}
			k := topology.SeriesKey{Name: c.Metric(), Unit: c.Unit(), Owner: o}
			if !keys[k] {
				t.Errorf("%s: column %q (%s) of %s %q is not a registered SeriesKey", f, c.Metric(), c.Unit(), o, c.Entity())
				continue
			}
			seen[k] = true
		}
		figures.Default(res) // panics on a series the run did not record
	}
	for _, f := range files {
		if f == "mm10.toml" {
			continue // one service, no guard: nothing the others lack
		}
		exp, err := experiment.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		models := []topology.Config{exp.Model}
		for _, v := range exp.Variants {
			models = append(models, v.Model)
		}
		for _, cfg := range models {
			res := runModel(t, cfg)
			check(f, res)
		}
	}
	// No bundled experiment sheds load by priority yet: a small model does.
	cfg := topology.Config{Name: "shed", Duration: 10 * time.Second, Seed: 1,
		Clients: []topology.ClientConfig{{Name: "c", Target: "s", Rate: 300}},
		Services: []topology.ServiceConfig{{Name: "s", Workers: 2, QueueCapacity: 10,
			Admission: topology.Admission{Shed: &shed.Config{Threshold: [3]float64{1, 0.8, 0.5}, RetryAfter: time.Second, Status: 503}},
			Steps:     []topology.Step{{Kind: topology.WorkStep, Work: dist.Must(dist.Params{Kind: dist.Exponential, Mean: 10 * time.Millisecond})}}}},
	}
	res := runModel(t, cfg)
	check("a small shedding model", res)
	for _, k := range topology.SeriesKeys() {
		if !seen[k] {
			t.Errorf("%s %q is recorded by no bundled experiment", k.Owner, k.Name)
		}
	}
}
