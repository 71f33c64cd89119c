package topology

import (
	"slices"
	"time"
)

// FaultKind is what a fault does.
type FaultKind uint8

// Fault kinds.
const (
	LatencyFault    FaultKind = iota // local work multiplied by Multiply and lengthened by Add
	ErrorFault                       // responses fail with probability Rate
	CrashFault                       // Count instances down: their work is lost, the balancer skips them
	WorkersFault                     // Count workers (or async slots) removed from each instance
	FreezeFault                      // a stop-the-world pause: local work makes no progress
	LoadFault                        // a client's rate multiplied by Multiply
	CacheFlushFault                  // the target's cache emptied at Start
	KillSwitchFault                  // calls to the target (from Caller, or anyone) skipped: the fallback answers
)

var faultNames = [...]string{"latency", "error", "crash", "workers", "freeze", "load", "cache_flush", "kill_switch"}

// String returns the fault kind's name as written in experiment files.
func (k FaultKind) String() string {
	if int(k) < len(faultNames) {
		return faultNames[k]
	}
	return "unknown"
}

// ParseFaultKind returns the kind with the given name.
func ParseFaultKind(s string) (FaultKind, bool) {
	i := slices.Index(faultNames[:], s)
	return FaultKind(i), i >= 0
}

// FaultKindNames lists the fault kinds' names.
func FaultKindNames() []string { return slices.Clone(faultNames[:]) }

// FaultConfig is a scheduled fault, active over [Start, End).
type FaultConfig struct {
	Kind FaultKind
	// Target is a service (or a client, for LoadFault).
	Target string
	// Instance, if >= 0, limits a service fault to one instance (less
	// than the service's instances); -1 means every instance (a file
	// writes that by leaving instance out). Other negatives are invalid.
	Instance int
	// Start and End bound the fault; End is ignored by CacheFlushFault.
	Start, End time.Duration
	// Multiply: LatencyFault's factor on local work, in (0, 10^6] and
	// required: a fault that only adds latency says 1 (0 is refused, as
	// in a file, rather than read as 1). LoadFault's factor on the rate,
	// in [0, 10^6]: 0 silences the client.
	Multiply float64
	// Add: LatencyFault's extra duration per work step, >= 0.
	Add time.Duration
	// Rate: ErrorFault's failure probability, in [0, 1].
	Rate float64
	// Count: instances (CrashFault, 1 to MaxInstances) or workers
	// (WorkersFault, 1 to MaxWorkers) lost; no default in Go (a file's
	// crash fault defaults to 1).
	Count int
	// Label describes the fault in reports; empty means a generated one.
	Label string
	// Caller limits a kill switch to the calls made by one service (or
	// "client:NAME"); empty means every caller.
	Caller string
	// Sticky, if not nil, makes an ErrorFault or a LatencyFault stick:
	// it touches only a fixed share of the users, keys or requests, the
	// same ones at every attempt (see StickyConfig). Nil: every attempt
	// is drawn (or slowed) independently, as always.
	Sticky *StickyConfig
}

// StickyBy is what a sticky fault's failing share is a share of.
type StickyBy uint8

// What a sticky fault sticks to.
const (
	// StickyByUser: a fixed share of the users. A closed-loop client's
	// users are its own; an open-loop client's request belongs to a user
	// drawn uniformly from a population of StickyConfig.Users.
	StickyByUser StickyBy = iota
	// StickyByKey: each user request carries a key drawn uniformly from
	// a key space of StickyConfig.Keys keys; a fixed share of the keys
	// fail.
	StickyByKey
	// StickyByRequest: a fixed share of the user requests (each its own
	// key, as in an infinite key space).
	StickyByRequest
)

var stickyByNames = [...]string{"user", "key", "request"}

// String returns the name as written in experiment files.
func (b StickyBy) String() string {
	if int(b) < len(stickyByNames) {
		return stickyByNames[b]
	}
	return "unknown"
}

// StickyByNames lists the names of what a sticky fault can stick to.
func StickyByNames() []string { return slices.Clone(stickyByNames[:]) }

// Defaults of StickyConfig's populations.
const (
	DefaultStickyUsers = 1000 // an open-loop client's users
	DefaultStickyKeys  = 1000 // the key space, when the target has no cache
)

// StickyConfig is a sticky fault's failing share. The identity (user,
// key) is drawn once per user request, deterministically from the run's
// seed, and travels with it down the call graph: every attempt of every
// call made for the request, retries and downstream calls included, has
// it. Whether an identity is in the failing share is a hash of the
// identity and the fault's own seed stream, so the failing set is fixed
// for the run: a retry of a failing request fails again.
type StickyConfig struct {
	By StickyBy
	// Share of the users, keys or requests the fault touches, in (0, 1].
	// An error fault fails their attempts with probability Rate (1: every
	// time); a latency fault slows their work. The others are untouched.
	Share float64
	// Users (StickyByUser): the user population of open-loop clients, 1
	// to MaxUsers; 0 means DefaultStickyUsers. Closed-loop clients'
	// users are their own.
	Users int
	// Keys (StickyByKey): the key space, 1 to MaxKeys; 0 means the
	// target's cache's Keys if it has a cache, else DefaultStickyKeys.
	Keys int
}

// keySpace is the number of keys a StickyByKey fault on target splits.
func (s *StickyConfig) keySpace(target *ServiceConfig) int {
	switch {
	case s.Keys > 0:
		return s.Keys
	case target != nil && target.Cache != nil && target.Cache.Keys > 0:
		return target.Cache.Keys
	}
	return DefaultStickyKeys
}

func (s *StickyConfig) validate(kind FaultKind) error {
	if kind != ErrorFault && kind != LatencyFault {
		return bad("sticky applies to error and latency faults only, not %s", kind)
	}
	if err := firstError(SettingStickyShare.check(s.Share), SettingStickyUsers.checkInt(s.Users), SettingStickyKeys.checkInt(s.Keys)); err != nil {
		return bad("sticky: %v", err)
	}
	switch {
	case int(s.By) >= len(stickyByNames):
		return bad("sticky: unknown by %d", s.By)
	case s.Users != 0 && s.By != StickyByUser:
		return bad("sticky: users applies to by = user only")
	case s.Keys != 0 && s.By != StickyByKey:
		return bad("sticky: keys applies to by = key only")
	}
	return nil
}

func (f *FaultConfig) validate(c *Config, svcs map[string]int, clients map[string]bool) error {
	if f.Start < 0 || (f.Kind != CacheFlushFault && f.End <= f.Start) {
		return bad("needs 0 <= start < end")
	}
	if f.Kind == LoadFault {
		if !clients[f.Target] {
			return bad("unknown client %q", f.Target)
		}
		return wrapBad(SettingLoadMultiply.check(f.Multiply))
	}
	i, ok := svcs[f.Target]
	if !ok {
		return bad("unknown service %q", f.Target)
	}
	s := &c.Services[i]
	if err := SettingFaultInstance.checkInt(f.Instance); err != nil {
		return bad("%v", err)
	}
	if f.Instance >= max(s.Instances, 1) {
		return bad("instance %d out of range: service %q has %d instance(s)", f.Instance, f.Target, max(s.Instances, 1))
	}
	if f.Sticky != nil {
		if err := f.Sticky.validate(f.Kind); err != nil {
			return err
		}
	}
	switch f.Kind {
	case LatencyFault:
		if f.Add < 0 {
			return bad("add must be >= 0, got %v", f.Add)
		}
		return wrapBad(SettingLatencyMultiply.check(f.Multiply))
	case ErrorFault:
		return wrapBad(SettingErrorRate.check(f.Rate))
	case CrashFault:
		return wrapBad(SettingCrashInstances.checkInt(f.Count))
	case WorkersFault:
		return wrapBad(SettingWorkersLost.checkInt(f.Count))
	case FreezeFault, KillSwitchFault:
	case CacheFlushFault:
		if s.Cache == nil {
			return bad("service %q has no cache", f.Target)
		}
	default:
		return bad("unknown kind")
	}
	return nil
}

// wrapBad marks a setting's refusal as a configuration error; nil stays
// nil.
func wrapBad(err error) error {
	if err == nil {
		return nil
	}
	return bad("%v", err)
}
