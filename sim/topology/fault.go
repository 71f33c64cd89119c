package topology

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// fault is a scheduled disturbance at run time.
type fault struct {
	m       *Model
	idx     int
	cfg     *FaultConfig
	svc     *service
	insts   []*instance // the instances it targets
	crashed []*instance // crash: the instances it took down
	removed []int       // workers: how many it removed from each target

	// A sticky fault (cfg.Sticky): the salt of its membership hash, drawn
	// from its own seed stream, and the population its share is of (users
	// of open-loop clients, or keys; 0 for by = request).
	salt uint64
	pop  uint64
}

func newFault(m *Model, idx int, cfg *FaultConfig) *fault {
	f := &fault{m: m, idx: idx, cfg: cfg}
	if cfg.Kind == LoadFault {
		return f // folded into the client's rate function
	}
	f.svc = m.byName[cfg.Target]
	if st := cfg.Sticky; st != nil {
		f.salt = m.sim.Stream(fmt.Sprintf("fault/%d/sticky", idx)).Uint64()
		switch st.By {
		case StickyByUser:
			f.pop = uint64(cmp.Or(st.Users, DefaultStickyUsers))
		case StickyByKey:
			f.pop = uint64(st.keySpace(f.svc.cfg))
		}
	}
	if cfg.Instance >= 0 {
		f.insts = []*instance{f.svc.insts[cfg.Instance]}
	} else {
		f.insts = f.svc.insts
	}
	if cfg.Kind == FreezeFault {
		// Freezes are known in advance: each instance keeps the windows and
		// stretches local work that overlaps them.
		for _, in := range f.insts {
			in.freezes = append(in.freezes, span{engine.Time(cfg.Start), engine.Time(cfg.End)})
			slices.SortFunc(in.freezes, func(a, b span) int { return int(a.from - b.from) })
		}
	}
	return f
}

// label describes the fault for reports.
func (f *fault) label() string { return f.cfg.ReportLabel() }

// ReportLabel is the fault's name in reports (FaultResult.Label): its
// Label, or one generated from its kind, target and size ("api slow x5").
func (c FaultConfig) ReportLabel() string {
	if c.Label != "" {
		return c.Label
	}
	where := c.Target
	if c.Instance >= 0 {
		where = fmt.Sprintf("%s[%d]", c.Target, c.Instance)
	}
	switch c.Kind {
	case LatencyFault:
		s := where + " slow"
		if c.Multiply != 0 && c.Multiply != 1 {
			s += fmt.Sprintf(" x%g", c.Multiply)
		}
		if c.Add > 0 {
			s += fmt.Sprintf(" +%v", c.Add)
		}
		return s
	case ErrorFault:
		return fmt.Sprintf("%s errors %g%%", where, 100*c.Rate)
	case CrashFault:
		return fmt.Sprintf("%s: %d instance(s) down", where, c.Count)
	case WorkersFault:
		return fmt.Sprintf("%s: %d worker(s) lost", where, c.Count)
	case FreezeFault:
		return where + " frozen"
	case LoadFault:
		return fmt.Sprintf("%s load x%g", where, c.Multiply)
	case CacheFlushFault:
		return where + " cache flushed"
	case KillSwitchFault:
		return "kill switch on calls to " + where
	}
	return c.Kind.String()
}

func (f *fault) schedule() {
	switch f.cfg.Kind {
	case LoadFault, FreezeFault:
		return // applied without events
	}
	f.m.at(engine.Time(f.cfg.Start), engine.HandlerFunc(f.begin), nil)
	if f.cfg.Kind != CacheFlushFault {
		f.m.at(engine.Time(f.cfg.End), engine.HandlerFunc(f.finish), nil)
	}
}

func (f *fault) begin(now engine.Time, _ any) {
	c := f.cfg
	switch c.Kind {
	case LatencyFault, ErrorFault:
		for _, in := range f.insts {
			f.m.activeFaults(in, f, true)
		}
	case CrashFault:
		n := c.Count
		for i := len(f.insts) - 1; i >= 0 && n > 0; i-- {
			if in := f.insts[i]; !in.down() {
				in.crash(now)
				f.crashed = append(f.crashed, in)
				n--
			}
		}
	case WorkersFault:
		f.removed = make([]int, len(f.insts))
		for i, in := range f.insts {
			r := min(c.Count, in.capacity)
			in.capacity -= r
			f.removed[i] = r
		}
		f.svc.syncWorkers(now)
	case CacheFlushFault:
		f.svc.cache.flush()
	case KillSwitchFault:
		f.kill(now, true)
	}
}

// kill turns the kill switch of every matching call site on or off.
func (f *fault) kill(now engine.Time, on bool) {
	f.m.killSwitch(now, f.cfg.Target, f.cfg.Caller, on, f.label())
}

// killSwitch turns the kill switch of the calls to target (from caller,
// or from every caller if caller is empty) on or off; label names the
// switch in the fallback's records.
func (m *Model) killSwitch(now engine.Time, target, caller string, on bool, label string) {
	for _, s := range m.sites {
		if s.callee == target && (caller == "" || s.caller == caller) {
			s.guards.killed = on
			s.guards.enter = s.guards.holds || on
			if fe := s.guards.feature; fe != nil && on {
				fe.Kill(now.Duration(), label)
			} else if fe != nil {
				fe.Revive(now.Duration(), label)
			}
		}
	}
}

func (f *fault) finish(now engine.Time, _ any) {
	switch f.cfg.Kind {
	case LatencyFault, ErrorFault:
		for _, in := range f.insts {
			f.m.activeFaults(in, f, false)
		}
	case CrashFault:
		for _, in := range f.crashed {
			in.mark(outDown, false)
		}
		f.crashed = nil
		f.svc.syncWorkers(now)
	case WorkersFault:
		for i, in := range f.insts {
			in.capacity += f.removed[i]
			in.startNext(now)
		}
		f.svc.syncWorkers(now)
	case KillSwitchFault:
		f.kill(now, false)
	}
}

// activeFaults adds or removes f from in's active latency and error
// faults and recomputes their combined effect.
func (m *Model) activeFaults(in *instance, f *fault, on bool) {
	if on {
		in.active = append(in.active, f)
	} else if i := slices.Index(in.active, f); i >= 0 {
		in.active = slices.Delete(in.active, i, i+1)
	}
	in.latMult, in.latAdd, in.errRate = 1, 0, 0
	in.sticky = in.sticky[:0]
	ok := 1.0
	for _, a := range in.active {
		if a.cfg.Sticky != nil {
			// Applied per attempt, to its share only (sticky.go).
			in.sticky = append(in.sticky, a)
			continue
		}
		switch a.cfg.Kind {
		case LatencyFault:
			if a.cfg.Multiply != 0 {
				in.latMult *= a.cfg.Multiply
			}
			in.latAdd += a.cfg.Add
		case ErrorFault:
			ok *= 1 - a.cfg.Rate
		}
	}
	in.errRate = 1 - ok
	in.faulty = in.errRate > 0 || len(in.sticky) > 0
	in.shaped = in.latMult != 1 || in.latAdd != 0 || len(in.sticky) > 0 || in.svc.cfg.Contention > 0
}

// crash takes the instance down: queued requests are refused and running
// ones lost, with a connection reset to their callers; the balancer skips
// the instance until it restarts.
func (in *instance) crash(now engine.Time) {
	s := in.svc
	m := s.m
	in.mark(outDown, true)
	in.epoch++
	s.syncWorkers(now)
	for _, a := range in.drainQueue() {
		s.st.inc(m, now, cKilled)
		in.leave(now, a, stError, policies.Error, "the instance crashed: connection reset")
	}
	running := in.running
	in.running = nil
	for _, a := range running {
		s.st.inc(m, now, cKilled)
		m.noteAttempt(now, a, "the instance crashed: its work is lost")
		in.release(now, a, policies.Error)
		if a.pending == 0 {
			m.respond(now, a, stError)
			continue
		}
		// With calls still out, the reset is sent when they return
		// (childDone sees the orphan).
		m.attemptTo(now, a, apOrphaned, "the instance crashed; its calls are still out")
	}
}
