package experiments_test

import (
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// variantModel returns the model of the named variant of a bundled
// experiment.
func variantModel(t *testing.T, file, variant string) topology.Config {
	t.Helper()
	exp, err := experiment.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range exp.Variants {
		if v.Name == variant {
			return v.Model
		}
	}
	t.Fatalf("%s has no variant %q", file, variant)
	return topology.Config{}
}

// With continuous cancellation and propagated cancellation the storm's
// wasted work falls to nothing: a handler stops at the instant its caller
// gives up, and that instant is also when the calls it made are cancelled
// (there is no network delay here, so no answer is in flight then), so no
// worker-time is spent after a give-up. The bound is 1 ms of worker time
// per service, against hundreds of worker-seconds without cancellation;
// the storm is then also gone (goodput back near the offered 800/s).
func TestCancellationStormWastesNothing(t *testing.T) {
	base := runExp(t, "cancellation-storm.toml", nil)
	cont := runModel(t, variantModel(t, "cancellation-storm.toml", "continuous"))
	for i, s := range cont.Services {
		b := base.Services[i]
		if s.WastedWork > 1e6 { // 1 ms
			t.Errorf("%s: wasted %v with continuous cancellation; want at most 1ms", s.Name, s.WastedWork)
		}
		if s.Name == "db" && (b.WastedWork.Seconds() < 100 || b.Cancelled != 0) {
			t.Errorf("base db: wasted %v, cancelled %d; want a storm that wastes > 100 worker-s and cancels nothing", b.WastedWork, b.Cancelled)
		}
		if s.Cancelled == 0 {
			t.Errorf("%s: nothing cancelled with continuous cancellation", s.Name)
		}
	}
	if g, bg := cont.Clients[0].Goodput, base.Clients[0].Goodput; g < 700 || bg > 300 {
		t.Errorf("goodput %.0f/s continuous, %.0f/s base; want > 700 and < 300", g, bg)
	}
}

// Without propagated cancellation (and without propagated deadlines)
// api's cancellation leaves its call to db running, detached, until its
// own 1 s timeout: db serves a backlog for nobody, wasting hundreds of
// worker-seconds, and the storm stays; with it db wastes nothing.
func TestCancellationStormNeedsPropagation(t *testing.T) {
	off := runModel(t, variantModel(t, "cancellation-storm.toml", "unpropagated"))
	on := runModel(t, variantModel(t, "cancellation-storm.toml", "cancellation-only"))
	offDB, onDB := off.Services[1], on.Services[1]
	if offDB.WastedWork.Seconds() < 100 || onDB.WastedWork > 1e6 {
		t.Errorf("db wasted %v without propagated cancellation, %v with; want > 100s and <= 1ms", offDB.WastedWork, onDB.WastedWork)
	}
	if off.Clients[0].Goodput > 300 || on.Clients[0].Goodput < 700 {
		t.Errorf("goodput %.0f/s without, %.0f/s with; want < 300 and > 700", off.Clients[0].Goodput, on.Clients[0].Goodput)
	}
}
