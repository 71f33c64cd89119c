package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/run/figures"
	"github.com/ressim/ressim/sim/run/output"
	"github.com/ressim/ressim/sim/run/runner"
	"github.com/ressim/ressim/sim/topology"
)

// Live figures: while a long run is simulated in the playground, its
// overview is drawn at fixed shares of the simulated time, so that a
// person watches the system (and its failure) as it is simulated, not
// only a percentage. The shares are fixed, not timed, so the same run
// always draws the same live figures; drawing only reads the model, so
// the outputs are the same bytes as without (TestLiveFiguresSameOutputs).
var liveShares = [...]float64{0.2, 0.5}

// LiveMinEvents is the estimated size (Estimate's Events) from which
// Execute into a Memory sink draws live figures: below it a run is over before a live
// figure would help, and drawing one would only delay the result.
const LiveMinEvents = 1e6

// liveProgress returns opt.Progress extended to draw the run's overview at each
// of liveShares, telling opt.Observe ("live" and the figure); or
// opt.Progress unchanged when the run is small or nobody listens.
func liveProgress(cfg topology.Config, opt Options) func(now, end time.Duration, live func() *topology.Result) {
	if !opt.LiveFigures || opt.Observe == nil || runner.Estimate(cfg).Events < LiveMinEvents {
		if opt.Progress == nil {
			return nil
		}
		return func(now, end time.Duration, _ func() *topology.Result) { opt.Progress(now, end) }
	}
	next := 0
	return func(now, end time.Duration, live func() *topology.Result) {
		if opt.Progress != nil {
			opt.Progress(now, end)
		}
		due := false // a share reached since the last call (one figure even if several were)
		for next < len(liveShares) && float64(now) >= liveShares[next]*float64(end) {
			next, due = next+1, true
		}
		if !due {
			return
		}
		if fig, err := liveOverview(live(), now); err == nil {
			opt.Observe("live", &fig)
		}
	}
}

// liveOverview draws res's overview as SVG, titled with how far the run
// has got.
func liveOverview(res *topology.Result, now time.Duration) (output.MemoryFigure, error) {
	f := figures.Overview(res, fmt.Sprintf("%s: running, %v of %v simulated", res.Name, now.Round(time.Second), res.Duration))
	var svg []byte
	err := output.DrawSafely(func() (err error) { svg, err = output.SVGGrowing(f.Figure); return err })
	return output.MemoryFigure{File: strings.TrimSuffix(f.File, ".png") + ".svg", SVG: svg}, err
}
