package run

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/metrics"
	"strings"
	"sync/atomic"
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
}

// DefaultBudget: 10^10 events (minutes to hours of CPU), 4 GiB of heap,
// one hour of wall time.
var DefaultBudget = Budget{MaxEvents: 1e10, MaxMemory: 4 << 30, Timeout: time.Hour}

// ErrBudget marks a command refused or stopped by its Budget.
var ErrBudget = errors.New("budget exceeded")

// BudgetError says which budget refused or stopped a command, and how to
// raise it.
type BudgetError struct {
	// Resource is "events", "memory" or "wall time".
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
	case "memory":
		return siBytes(x)
	case "wall time":
		return time.Duration(x * 1e9).Round(time.Millisecond).String()
	}
	return siCount(x) + " events"
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
	for _, r := range runs {
		c := Estimate(r.Model)
		events += c.Events * float64(r.Times)
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
	if n := runsOf(runs); n > 1 {
		hint += fmt.Sprintf(", times the %d runs (variants x replications x cells)", n)
	}
	if b.MaxEvents > 0 && events > b.MaxEvents {
		return &BudgetError{Resource: "events", Estimated: true, Used: events, Limit: b.MaxEvents, Flag: "--max-events", Hint: hint}
	}
	for _, r := range runs {
		if !r.OnDisk {
			mem += float64(r.Times) * bytesPerRecord
		}
	}
	if b.MaxMemory > 0 && mem > float64(b.MaxMemory) {
		return &BudgetError{Resource: "memory", Estimated: true, Used: mem, Limit: float64(b.MaxMemory), Flag: "--max-memory",
			Hint: "the memory grows with users, workers and [experiment] duration / interval x (clients + services)"}
	}
	return nil
}

// bytesPerRecord is what a comparison keeps of each run in memory: its
// headline metrics, fault verdicts and summary digest (RunRecord), with
// slack. Sweeps and shards keep theirs on disk (PlannedRun.OnDisk).
const bytesPerRecord = 1024

// PlannedRun is a model and how many times a command runs it.
type PlannedRun struct {
	Model topology.Config
	Times int
	// OnDisk says the runs' records go to disk as they finish (a sweep's
	// cell spool, a shard's partial file), so they cost no memory per run.
	OnDisk bool
}

func runsOf(runs []PlannedRun) int {
	n := 0
	for _, r := range runs {
		n += r.Times
	}
	return n
}

// meter enforces a Budget while runs execute; it is the topology.Guard
// every run of one command shares. Safe for concurrent use.
type meter struct {
	b        Budget
	ctx      context.Context
	deadline time.Time
	events   atomic.Uint64
	// queueHint names the services whose queues are unbounded, for the
	// memory error.
	queueHint string
}

func newMeter(ctx context.Context, b Budget, cfgs ...topology.Config) *meter {
	m := &meter{b: b, ctx: ctx}
	if b.Timeout > 0 {
		m.deadline = time.Now().Add(b.Timeout)
	}
	var unbounded []string
	for _, cfg := range cfgs {
		for _, s := range cfg.Services {
			if s.QueueCapacity < 0 && !contains(unbounded, s.Name) {
				unbounded = append(unbounded, s.Name)
			}
		}
	}
	if len(unbounded) > 0 {
		m.queueHint = "an unbounded queue grows while a service is overloaded: set queue_capacity on " + strings.Join(unbounded, ", ")
	}
	return m
}

// Check implements topology.Guard.
func (m *meter) Check(n uint64) error {
	if m.ctx != nil {
		if err := m.ctx.Err(); err != nil {
			return err
		}
	}
	total := m.events.Add(n)
	if m.b.MaxEvents > 0 && float64(total) > m.b.MaxEvents {
		return &BudgetError{Resource: "events", Used: float64(total), Limit: m.b.MaxEvents, Flag: "--max-events"}
	}
	if !m.deadline.IsZero() && time.Now().After(m.deadline) {
		return &BudgetError{Resource: "wall time", Used: m.b.Timeout.Seconds(), Limit: m.b.Timeout.Seconds(), Flag: "--timeout"}
	}
	if m.b.MaxMemory > 0 {
		if used := heapInUse(); used > m.b.MaxMemory {
			return &BudgetError{Resource: "memory", Used: float64(used), Limit: float64(m.b.MaxMemory), Flag: "--max-memory", Hint: m.queueHint}
		}
	}
	return nil
}

// heapInUse is the bytes of heap objects, live or not yet swept.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
