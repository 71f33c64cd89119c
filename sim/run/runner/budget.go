package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// Budget bounds what one command (a run, a comparison, a sweep) may cost
// in total, over all its runs. A zero field means no limit. Every bundled
// experiment fits DefaultBudget with a wide margin (docs/security.md).
type Budget struct {
	// MaxEvents is the events all runs together may fire.
	MaxEvents float64
	// MaxMemory is the bytes of heap the process may hold (live objects,
	// sampled every topology.GuardEvery events).
	MaxMemory uint64
	// Timeout is the wall time the command may take. Wall time is read
	// only to stop runs: it never changes a finished run's results.
	Timeout time.Duration
	// MaxOutput is the bytes of data files (time series, events,
	// OpenMetrics) the command may write, all runs together. Output size
	// follows from the configuration (intervals × series columns, the
	// event log's cap), so it is checked before running only.
	MaxOutput float64
}

// DefaultBudget: 10^10 events (minutes to hours of CPU), 4 GiB of heap,
// one hour of wall time, 1 GiB of data files (the largest bundled
// output, mm10's with --openmetrics, is under 8 MB).
var DefaultBudget = Budget{MaxEvents: 1e10, MaxMemory: 4 << 30, Timeout: time.Hour, MaxOutput: 1 << 30}

// ErrBudget marks a command refused or stopped by its Budget.
var ErrBudget = errors.New("budget exceeded")

// BudgetError says which budget refused or stopped a command, and how to
// raise it.
type BudgetError struct {
	// Resource is "events", "memory", "wall time" or "output".
	Resource string
	// Estimated is true when the command was refused before any run.
	Estimated bool
	// Used and Limit are in the resource's unit (events, bytes, seconds).
	Used, Limit float64
	// Flag raises the limit; Hint says what drives the cost.
	Flag, Hint string
}

func (e *BudgetError) Error() string {
	verb := "stopped: used"
	if e.Estimated {
		verb = "refused before running: estimated"
	}
	s := fmt.Sprintf("%s budget %s %s, over the limit of %s", e.Resource, verb, e.format(e.Used), e.format(e.Limit))
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s + fmt.Sprintf("; raise the limit with %s (0: none)", e.Flag)
}

func (e *BudgetError) format(x float64) string {
	switch e.Resource {
	case "memory", "output":
		return FormatBytes(x)
	case "wall time":
		return time.Duration(x * 1e9).Round(time.Millisecond).String()
	}
	return FormatCount(x) + " events"
}

// Unwrap makes errors.Is(err, ErrBudget) hold.
func (e *BudgetError) Unwrap() error { return ErrBudget }

// Check refuses, before anything runs, a command whose estimated total
// cost exceeds the budget: runs is each distinct model with the number of
// times it runs.
func (b Budget) Check(runs []PlannedRun) error {
	var events, mem float64
	drivers := map[string]bool{}
	var keys []string
	costs := make([]Cost, len(runs))
	for i, r := range runs {
		c := Estimate(r.Model)
		costs[i] = c
		events += r.events(c) * float64(r.Times)
		mem = math.Max(mem, c.Memory)
		for _, d := range c.Drivers {
			k := d[:max(strings.Index(d, " ("), 0)]
			if !drivers[k] {
				drivers[k] = true
				keys = append(keys, k)
			}
		}
	}
	hint := "the cost grows with [experiment] duration"
	if len(keys) > 0 {
		hint += " and " + strings.Join(keys, ", ")
	}
	if n := Runs(runs); n > 1 {
		hint += fmt.Sprintf(", times the %d runs (variants x replications x cells)", n)
	}
	if math.IsInf(events, 1) {
		hint = "a closed-loop client without think time whose requests may come back at once (refused at the door or by its own guards, answered by a cache) sends them for ever at one instant (" +
			strings.Join(keys, ", ") + "): give its think_time a mean above 0"
	}
	if b.MaxEvents > 0 && events > b.MaxEvents {
		return &BudgetError{Resource: "events", Estimated: true, Used: events, Limit: b.MaxEvents, Flag: "--max-events", Hint: hint}
	}
	for _, r := range runs {
		if !r.OnDisk {
			mem += float64(r.Times) * BytesPerRecord
		}
	}
	if b.MaxMemory > 0 && mem > float64(b.MaxMemory) {
		return &BudgetError{Resource: "memory", Estimated: true, Used: mem, Limit: float64(b.MaxMemory), Flag: "--max-memory",
			Hint: "the memory grows with users, workers and [experiment] duration / interval x (clients + services)"}
	}
	var out float64
	for i, r := range runs {
		c := costs[i]
		if r.Writes&WritesSeries != 0 {
			out += float64(r.Times) * c.SeriesBytes
		}
		if r.Writes&WritesEvents != 0 {
			out += float64(r.Times) * c.EventsBytes
		}
		if r.Writes&WritesOpenMetrics != 0 {
			out += float64(r.Times) * c.OpenMetrics
		}
		if r.Writes&WritesPrometheusText != 0 {
			out += float64(r.Times) * c.OpenMetrics
		}
		if r.Writes&WritesTraceOTLP != 0 {
			out += float64(r.Times) * c.TraceOTLP
		}
	}
	if b.MaxOutput > 0 && out > b.MaxOutput {
		return &BudgetError{Resource: "output", Estimated: true, Used: out, Limit: b.MaxOutput, Flag: "--max-output",
			Hint: "the files grow with [experiment] duration / interval x the series columns (clients, services, guarded calls)"}
	}
	return nil
}

// BytesPerRecord is what a comparison keeps of each run in memory: its
// headline metrics, fault verdicts and summary digest (RunRecord), with
// slack. Sweeps and shards keep theirs on disk (PlannedRun.OnDisk).
const BytesPerRecord = 1024

// PlannedRun is a model and how many times a command runs it.
type PlannedRun struct {
	Model topology.Config
	Times int
	// OnDisk says the runs' records go to disk as they finish (a sweep's
	// cell spool, a shard's partial file), so they cost no memory per run.
	OnDisk bool
	// Writes says which data files each of the runs writes, for
	// Budget.MaxOutput; 0 writes none (a sweep's runs, lint's).
	Writes Writes
	// MaxEvents, if > 0, is the run's own cap (Options.MaxEvents): it
	// costs at most that many events, whatever its estimate.
	MaxEvents float64
}

// events is what one of the runs is planned to cost.
func (r PlannedRun) events(c Cost) float64 {
	if r.MaxEvents > 0 {
		return min(c.Events, r.MaxEvents)
	}
	return c.Events
}

// Runs is the number of runs in a plan.
func Runs(runs []PlannedRun) int {
	n := 0
	for _, r := range runs {
		n += r.Times
	}
	return n
}

// TotalEvents is the estimated events of a whole plan.
func TotalEvents(plan []PlannedRun) float64 {
	var t float64
	for _, r := range plan {
		t += r.events(Estimate(r.Model)) * float64(r.Times)
	}
	return t
}

// Bound returns ctx with b.Timeout's deadline from now (none when 0), for
// a command's work outside the simulator (promtool, figures, a merge's
// reading): the Meter bounds its runs, Bound the rest.
func (b Budget) Bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if b.Timeout > 0 {
		return context.WithTimeout(ctx, b.Timeout)
	}
	return context.WithCancel(ctx)
}

// Explain returns err, or the wall-time BudgetError when err came from
// work stopped by a context that Bound made and whose deadline passed (a
// killed promtool says only "signal: killed").
func (b Budget) Explain(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, ErrBudget) || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w (%v)", &BudgetError{Resource: "wall time", Used: b.Timeout.Seconds(), Limit: b.Timeout.Seconds(), Flag: "--timeout"}, err)
}

// Writes is a set of data files a run writes.
type Writes uint8

// The data files: the time series (timeseries.csv), the event log
// (events.csv), the OpenMetrics export (metrics.om) and the Prometheus
// text export (metrics.prom, the same samples: estimated at
// Cost.OpenMetrics too) and the OpenTelemetry trace (trace.otlp.json,
// Cost.TraceOTLP).
const (
	WritesSeries Writes = 1 << iota
	WritesEvents
	WritesOpenMetrics
	WritesPrometheusText
	WritesTraceOTLP
)
