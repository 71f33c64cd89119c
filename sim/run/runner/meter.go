package runner

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ressim/ressim/sim/topology"
)

// Meter enforces a Budget while runs execute; it is the topology.Guard
// every run of one command shares. Safe for concurrent use.
type Meter struct {
	ctx context.Context
	*tally
}

// tally is what the Meters of one command share: the budget, its
// deadline and the events fired so far.
type tally struct {
	b        Budget
	deadline time.Time
	events   atomic.Uint64
	// queueHint names the services whose queues are unbounded, for the
	// memory error.
	queueHint string
}

// NewMeter returns the Meter of one command: ctx cancels its runs, b
// bounds them all together (the wall-time deadline starts now), and cfgs
// are the models it will run, whose unbounded queues the memory error
// names.
func NewMeter(ctx context.Context, b Budget, cfgs ...topology.Config) *Meter {
	m := &Meter{ctx: ctx, tally: &tally{b: b}}
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

// Within returns a Meter that counts against m's budget (the same
// events, heap limit and deadline) and is also stopped by ctx: for a
// command that cancels its remaining runs when one fails.
func (m *Meter) Within(ctx context.Context) *Meter { return &Meter{ctx: ctx, tally: m.tally} }

// Check implements topology.Guard.
func (m *Meter) Check(n uint64) error {
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
			if used = liveHeap(); used > m.b.MaxMemory {
				return &BudgetError{Resource: "memory", Used: float64(used), Limit: float64(m.b.MaxMemory), Flag: "--max-memory", Hint: m.queueHint}
			}
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

// liveHeap collects the garbage and returns the bytes of heap objects
// then: the live heap. heapInUse counts objects not yet swept, so a run
// after others (a test binary, a command's earlier runs) could be
// stopped for their garbage; the budget is on what is held. Check calls
// it only when heapInUse is over the budget, so a collection is forced
// at most once per growth of the heap past it.
func liveHeap() uint64 {
	runtime.GC()
	return heapInUse()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
