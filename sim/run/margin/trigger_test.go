package margin

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// triggerModel is a model of 100 s with the given faults and four
// clients: two open-loop at constant rates (300 and 100 rps), one on a
// rate schedule (whose Rate the schedule overrides) and one closed-loop.
func triggerModel(faults ...topology.FaultConfig) topology.Config {
	return topology.Config{
		Duration: 100 * time.Second,
		Clients: []topology.ClientConfig{
			{Name: "a", Rate: 300},
			{Name: "b", Rate: 100},
			{Name: "sched", Rate: 999, Schedule: []topology.RatePoint{{At: 0, Rate: 50}, {At: 10 * time.Second, Rate: 80}}},
			{Name: "closed", Users: 20},
		},
		Faults: faults,
	}
}

var (
	slow = topology.FaultConfig{Kind: topology.LatencyFault, Target: "api", Instance: -1,
		Start: 20 * time.Second, End: 30 * time.Second, Multiply: 5}
	errs = topology.FaultConfig{Kind: topology.ErrorFault, Target: "db", Instance: -1,
		Start: 40 * time.Second, End: 50 * time.Second, Rate: 0.25, Label: "db errors"}
	flush = topology.FaultConfig{Kind: topology.CacheFlushFault, Target: "cache", Instance: -1,
		Start: 10 * time.Second}
	late = topology.FaultConfig{Kind: topology.FreezeFault, Target: "api", Instance: -1,
		Start: 80 * time.Second, End: 95 * time.Second, Label: "late"}
	crash = topology.FaultConfig{Kind: topology.CrashFault, Target: "api", Instance: -1,
		Start: 10 * time.Second, End: 20 * time.Second, Count: 1}
)

// TestNewTriggerSteps is a step table of NewTrigger: the fault chosen, the
// range of each kind of trigger, and each refusal, by its message.
func TestNewTriggerSteps(t *testing.T) {
	gentle := slow
	gentle.Multiply = 1
	noErr := errs
	noErr.Rate = 0
	cases := []struct {
		name      string
		cfg       topology.Config
		label, by string
		err       string // a part of the error's text; "" for none
		want      Trigger
	}{
		{"no fault", triggerModel(), "", ByDuration, "has no [[fault]]", Trigger{}},
		{"two faults, none chosen", triggerModel(slow, errs), "", ByDuration, `2 faults: choose one with --fault (labels: "api slow x5", "db errors")`, Trigger{}},
		{"no such label", triggerModel(slow, errs), "db slow", ByDuration, `no [[fault]] labelled "db slow"`, Trigger{}},
		{"a flush has no duration", triggerModel(flush), "", ByDuration, "is a cache flush, an instant", Trigger{}},
		{"size of a multiply of 1", triggerModel(gentle), "", BySize, "multiplies by 1: --by size searches multipliers above 1", Trigger{}},
		{"size of an error rate of 0", triggerModel(noErr), "", BySize, "has an error rate of 0", Trigger{}},
		{"size of a crash", triggerModel(crash), "", BySize, "is a crash fault", Trigger{}},
		{"load without a constant rate", topology.Config{Duration: time.Minute, Clients: triggerModel().Clients[2:], Faults: []topology.FaultConfig{slow}}, "", ByLoad, "no open-loop client with a constant rate", Trigger{}},
		{"unknown trigger", triggerModel(slow), "", "rate", `--by "rate": want duration, size or load`, Trigger{}},
		{"the only fault's duration", triggerModel(slow), "", ByDuration, "", Trigger{
			By: ByDuration, Fault: 0, Label: "api slow x5", File: 10, Log: true,
			Min: 10.0 / 4096, Max: 40, ScanLo: 10.0 / 256, ScanHi: 10, // Max: half the 80 s left after the start
			Key: "threshold_duration_s", Unit: "s"}},
		{"a chosen fault's duration", triggerModel(slow, errs), "db errors", ByDuration, "", Trigger{
			By: ByDuration, Fault: 1, Label: "db errors", File: 10, Log: true,
			Min: 10.0 / 4096, Max: 30, ScanLo: 10.0 / 256, ScanHi: 10, Key: "threshold_duration_s", Unit: "s"}},
		{"a late fault, longer than half the rest of the run", triggerModel(late), "", ByDuration, "", Trigger{
			By: ByDuration, Fault: 0, Label: "late", File: 15, Log: true,
			Min: 15.0 / 4096, Max: 15, ScanLo: 15.0 / 256, ScanHi: 15, Key: "threshold_duration_s", Unit: "s"}},
		{"a latency fault's multiply", triggerModel(slow), "api slow x5", BySize, "", Trigger{
			By: BySize, Fault: 0, Label: "api slow x5", File: 5, Log: true,
			Min: 1 + 4.0/1024, Max: 1e6, ScanLo: 1.25, ScanHi: 5, Key: "threshold_size", Unit: "x"}},
		{"an error fault's rate", triggerModel(slow, errs), "db errors", BySize, "", Trigger{
			By: BySize, Fault: 1, Label: "db errors", File: 0.25, Log: true,
			Min: 0.25 / 4096, Max: 1, ScanLo: 0.25 / 64, ScanHi: 0.25, Key: "threshold_size", Unit: ""}},
		{"the constant rates' sum", triggerModel(slow), "", ByLoad, "", Trigger{
			By: ByLoad, Fault: 0, Label: "api slow x5", File: 400, Log: false,
			Min: 400.0 / 64, Max: 1600, ScanLo: 100, ScanHi: 400, Key: "threshold_load_rps", Unit: "rps"}},
	}
	for _, c := range cases {
		got, err := NewTrigger(c.cfg, c.label, c.by)
		if c.err != "" {
			if err == nil || !errors.Is(err, ErrSetup) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want ErrSetup saying %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		w := c.want
		if got.By != w.By || got.Fault != w.Fault || got.Label != w.Label || got.Log != w.Log ||
			got.Key != w.Key || got.Unit != w.Unit || got.Axis == "" {
			t.Errorf("%s: got %+v, want %+v", c.name, *got, w)
		}
		for _, v := range []struct {
			name      string
			got, want float64
		}{{"File", got.File, w.File}, {"Min", got.Min, w.Min}, {"Max", got.Max, w.Max}, {"ScanLo", got.ScanLo, w.ScanLo}, {"ScanHi", got.ScanHi, w.ScanHi}} {
			if math.Abs(v.got-v.want) > 1e-12*math.Max(1, math.Abs(v.want)) {
				t.Errorf("%s: %s %g, want %g", c.name, v.name, v.got, v.want)
			}
		}
	}
}

// TestTriggerModel checks that Model sets what the trigger varies, keeps
// the fault's name, and never writes the file's model.
func TestTriggerModel(t *testing.T) {
	base := triggerModel(slow, errs)
	before := triggerModel(slow, errs)
	check := func(label, by string, x float64, see func(topology.Config) string) {
		t.Helper()
		tr, err := NewTrigger(base, label, by)
		if err != nil {
			t.Fatal(err)
		}
		if msg := see(tr.Model(x)); msg != "" {
			t.Errorf("--by %s at %g: %s", by, x, msg)
		}
		if !sameModel(base, before) {
			t.Fatalf("--by %s at %g wrote the file's model", by, x)
		}
	}
	check("api slow x5", ByDuration, 2.5, func(c topology.Config) string {
		f := c.Faults[0]
		if f.End-f.Start != 2500*time.Millisecond || f.Label != "api slow x5" {
			return "fault " + f.ReportLabel() + " lasts " + (f.End - f.Start).String()
		}
		return ""
	})
	check("api slow x5", BySize, 2, func(c topology.Config) string {
		if f := c.Faults[0]; f.Multiply != 2 || f.ReportLabel() != "api slow x5" {
			return "fault " + f.ReportLabel()
		}
		return ""
	})
	check("db errors", BySize, 0.5, func(c topology.Config) string {
		if f := c.Faults[1]; f.Rate != 0.5 || f.Multiply != 0 {
			return "fault " + f.ReportLabel()
		}
		return ""
	})
	check("db errors", ByLoad, 200, func(c topology.Config) string {
		cl := c.Clients
		if cl[0].Rate != 150 || cl[1].Rate != 50 || cl[2].Schedule[0].Rate != 25 || cl[2].Schedule[1].Rate != 40 || cl[3].Users != 20 {
			return "clients scaled wrongly"
		}
		return ""
	})
}

// sameModel compares what Model may touch: the faults and the clients'
// rates and schedules.
func sameModel(a, b topology.Config) bool {
	if len(a.Faults) != len(b.Faults) || len(a.Clients) != len(b.Clients) {
		return false
	}
	for i := range a.Faults {
		if a.Faults[i] != b.Faults[i] {
			return false
		}
	}
	for i := range a.Clients {
		ca, cb := a.Clients[i], b.Clients[i]
		if ca.Rate != cb.Rate || ca.Users != cb.Users || len(ca.Schedule) != len(cb.Schedule) {
			return false
		}
		for j := range ca.Schedule {
			if ca.Schedule[j] != cb.Schedule[j] {
				return false
			}
		}
	}
	return true
}

// TestTriggerFormat checks the values margin prints: a duration rounded to
// three significant digits, a multiply, a load, a rate.
func TestTriggerFormat(t *testing.T) {
	cases := []struct {
		unit string
		x    float64
		want string
	}{
		{"s", 0.1123456, "112ms"},
		{"s", 12.345678, "12.3s"},
		{"s", 1e-9, "1ns"},
		{"x", 2.5, "x2.5"},
		{"x", 1.23456, "x1.23"},
		{"rps", 640, "640 rps"},
		{"rps", 1234.56, "1235 rps"},
		{"", 0.0123456, "0.0123"},
	}
	for _, c := range cases {
		if got := (&Trigger{Unit: c.unit}).Format(c.x); got != c.want {
			t.Errorf("Format(%g) with unit %q = %q, want %q", c.x, c.unit, got, c.want)
		}
	}
}
