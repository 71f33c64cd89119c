package run

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// TestLiveFiguresSameOutputs: with LiveFigures, the retry storm (ten
// simulated minutes) is drawn live at 2 and 5 minutes, before the run
// ends, titled with how far it got; the outputs are the same bytes as
// without; and a small run draws nothing live.
func TestLiveFiguresSameOutputs(t *testing.T) {
	exp, err := experiment.Load("../../experiments/metastable-retry-storm.toml")
	if err != nil {
		t.Fatal(err)
	}
	if e := runner.Estimate(mustModel(t, exp)).Events; e < LiveMinEvents {
		t.Fatalf("the retry storm is estimated at %.0f events, under LiveMinEvents", e)
	}
	plain, err := executeMemory(exp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	var live []output.MemoryFigure
	got, err := executeMemory(exp, Options{LiveFigures: true, Observe: func(stage string, fig *output.MemoryFigure) {
		stages = append(stages, stage)
		if stage == "live" {
			live = append(live, *fig)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(stages, ","); !strings.HasPrefix(s, "live,live,simulated,") {
		t.Errorf("stages %s, want two live figures before the simulation ends", s)
	}
	for i, want := range []string{"running, 2m0s of 10m0s simulated", "running, 5m0s of 10m0s simulated"} {
		if i >= len(live) || live[i].File != "overview.svg" || !bytes.Contains(live[i].SVG, []byte(want)) {
			t.Errorf("live figure %d is not the overview titled %q", i, want)
		}
	}
	if !bytes.Equal(got.Data(SummaryFile), plain.Data(SummaryFile)) || len(got.Figures) != len(plain.Figures) {
		t.Fatalf("summary.json or the figures changed with live figures")
	}
	for i := range got.Figures {
		if !bytes.Equal(got.Figures[i].SVG, plain.Figures[i].SVG) {
			t.Errorf("%s changed with live figures", got.Figures[i].File)
		}
	}

	small, err := experiment.Load("../../experiments/retry-amplification.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := executeMemory(small, Options{LiveFigures: true, Observe: func(stage string, _ *output.MemoryFigure) {
		if stage == "live" {
			t.Errorf("a small run (%.0f events estimated) was drawn live", runner.Estimate(mustModel(t, small)).Events)
		}
	}}); err != nil {
		t.Fatal(err)
	}
}

// mustModel is exp's model as a run builds it.
func mustModel(t *testing.T, exp *experiment.Experiment) topology.Config {
	t.Helper()
	cfg, err := model(exp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestLiveFiguresEveryBundled: every bundled experiment large enough to
// be drawn live gets both live overviews: a figure that fails to draw is
// skipped silently in the page, so it must not fail here either.
func TestLiveFiguresEveryBundled(t *testing.T) {
	files, err := filepath.Glob("../../experiments/*.toml")
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d experiments (%v)", len(files), err)
	}
	large := 0
	for _, f := range files {
		exp, err := experiment.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if runner.Estimate(mustModel(t, exp)).Events < LiveMinEvents {
			continue
		}
		large++
		n := 0
		if _, err := executeMemory(exp, Options{LiveFigures: true, Observe: func(stage string, _ *output.MemoryFigure) {
			if stage == "live" {
				n++
			}
		}}); err != nil {
			t.Fatal(err)
		}
		if n != len(liveShares) {
			t.Errorf("%s: %d live figures, want %d", filepath.Base(f), n, len(liveShares))
		}
	}
	if large < 3 {
		t.Errorf("only %d bundled experiments are drawn live; the test checks too little", large)
	}
}
