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
