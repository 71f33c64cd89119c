package runner

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// Options say how one model runs under a Meter. The zero Options run it
// with nothing but the Meter's budget.
type Options struct {
	// HistogramSeries records the per-interval latency histograms in
	// Result.Histograms (topology.Model.RecordHistogramSeries), for the
	// OpenMetrics export and alerting rules on latency.
	HistogramSeries bool
	// MaxEvents, if > 0, stops this run alone after about that many
	// events (checked every topology.GuardEvery) with an error for which
	// errors.Is(err, ErrRunEvents) holds, leaving the command's other runs
	// and its Meter going: a per-run cap such as lint --simulate's quick
	// scenarios. The events still count against the Meter's budget.
	MaxEvents uint64
	// Progress, if not nil, is called as simulated time advances with the
	// time reached, the end, and live, which returns the run's state so
	// far (topology.Model.Live) for a figure drawn while it runs.
	Progress func(now, end time.Duration, live func() *topology.Result)
	// Watch, if not nil, is called at every interval's end with the
	// state then; returning true ends the run there
	// (topology.Model.OnInterval). Rare-event estimation stops a run at
	// its lock-in with it.
	Watch func(topology.IntervalState) bool
	// Branches reseed every random stream at their simulated times
	// (topology.Model.BranchAt): restart by replay.
	Branches []Branch
}

// Branch is one reseeding of a run's random streams: at At, as if the
// seed were Seed from then on.
type Branch struct {
	At   time.Duration
	Seed uint64
}

// ErrRunEvents marks a run stopped by Options.MaxEvents.
var ErrRunEvents = errors.New("over the run's event cap")

// Run is the one way ressim builds and runs a model: every command (run,
// compare, sweep, merge, lint --simulate, alerts, the playground) goes
// through a Meter's Run, so that every run is bounded by its command's
// budget, stopped by its context, and counted (TestOnlyTheRunnerRuns
// keeps it so). Safe for concurrent use: runs of one command on several
// goroutines share the Meter.
func (m *Meter) Run(cfg topology.Config, opt Options) (*topology.Result, error) {
	mod, err := topology.New(cfg)
	if err != nil {
		return nil, err
	}
	var g topology.Guard = m
	if opt.MaxEvents > 0 {
		g = &capped{Meter: m, max: opt.MaxEvents}
	}
	mod.SetGuard(g)
	if opt.HistogramSeries {
		mod.RecordHistogramSeries()
	}
	if opt.Progress != nil {
		p := opt.Progress
		mod.OnProgress(func(now, end time.Duration) { p(now, end, mod.Live) })
	}
	if opt.Watch != nil {
		mod.OnInterval(opt.Watch)
	}
	for _, b := range opt.Branches {
		mod.BranchAt(b.At, b.Seed)
	}
	return mod.Run()
}

// Execute runs one model as a whole command: it refuses cfg over b before
// running (Budget.Check), then runs it under a new Meter. Commands that
// run several models check their whole plan and share one Meter instead.
func Execute(ctx context.Context, b Budget, cfg topology.Config, opt Options) (*topology.Result, error) {
	if err := b.Check([]PlannedRun{{Model: cfg, Times: 1, OnDisk: true}}); err != nil {
		return nil, err
	}
	return NewMeter(ctx, b, cfg).Run(cfg, opt)
}

// capped adds a per-run event cap to a command's Meter.
type capped struct {
	*Meter
	max  uint64
	used atomic.Uint64 // one run's events: the model calls Check from one goroutine, but the type stays safe
}

func (c *capped) Check(n uint64) error {
	if err := c.Meter.Check(n); err != nil {
		return err
	}
	if used := c.used.Add(n); used > c.max {
		return fmt.Errorf("%w: %d events, cap %d", ErrRunEvents, used, c.max)
	}
	return nil
}
