package topology

import (
	"fmt"
	"time"
)

// The event log: every change of a policy's state, recorded at the
// simulated instant it happens, next to the interval series (which keep
// the rates). A state sampled at the end of each interval misses what
// lasts less than an interval (a half-open breaker whose probes fail
// within milliseconds); the log does not.

// EventKind says what changed. Its value is the kind column of
// events.csv.
type EventKind string

// The kinds of event, with their subject and their From/To values.
const (
	// EventBreaker: a circuit breaker changed state. Subject is the call
	// site ("caller->callee/operation"); From and To are "closed",
	// "open" or "half_open"; Detail is the reason (breaker.Reason:
	// failure_rate, slow_call_rate, probe_failed, pause_elapsed,
	// probes_succeeded; forced and released for a force_breaker action).
	// The move to half_open is recorded at the end of the open pause,
	// the instant from which the breaker lets probes through, even if
	// the first call comes later.
	EventBreaker EventKind = "breaker"
	// EventProbe: a half-open breaker's probe came back. Subject is the
	// call site; From is "half_open", To "passed" or "failed" (slow calls
	// fail); Detail is "probe n of N".
	EventProbe EventKind = "probe"
	// EventEjection: outlier detection ejected an instance, or returned
	// it. Subject is the instance ("service[i]"); From/To "in" and
	// "ejected"; Detail the detector (outlier.Reason).
	EventEjection EventKind = "ejection"
	// EventReadiness: an instance's readiness probe changed its verdict.
	// Subject is the instance; From/To "ready" and "unready".
	EventReadiness EventKind = "readiness"
	// EventLiveness: a liveness probe restarted an instance, or the
	// instance came back. Subject is the instance; From/To "live" and
	// "restarting".
	EventLiveness EventKind = "liveness"
	// EventLimit: an instance's adaptive concurrency limit moved. Subject
	// is the instance; From and To are integer limits. The log thins the
	// limit's moves (see LimitStep): From is the last recorded value, so
	// the events read as a step series of the limit.
	EventLimit EventKind = "limit"
)

// LimitStep is the thinning of limit events: a limit's move is recorded
// when it differs from the last recorded value by at least this fraction
// of it (and at least 1). An AIMD limit moves by one request every
// limit/inflight releases, which at 1000 req/s is tens of moves a
// second; a 10 % step keeps every multiplicative decrease (x0.9, the
// default backoff) and one event per 10 % of a slow climb, so a limit
// walking from 4 to 400 and back costs about 100 events.
const LimitStep = 0.10

// DefaultEventLogCap is the events a run keeps when Config.EventLogCap is
// 0. At about 100 bytes an event it bounds the log at about 1 MB.
const DefaultEventLogCap = 10000

// Event is one change of state, at simulated instant At.
type Event struct {
	At       time.Duration
	Kind     EventKind
	Subject  string
	From, To string
	Detail   string
}

// EventLog is a run's state changes in time order (events at the same
// instant in the order they happened), the first Cap of them: Dropped
// counts those recorded after the log was full.
type EventLog struct {
	Events  []Event
	Dropped uint64
	Cap     int
}

// add records e, keeping the log in time order: an event may be recorded
// after later ones (a breaker's move to half-open is known at the first
// call after its pause ended), and then moves back past them.
func (l *EventLog) add(e Event) {
	if len(l.Events) >= l.Cap {
		l.Dropped++
		return
	}
	l.Events = append(l.Events, e)
	for i := len(l.Events) - 1; i > 0 && l.Events[i-1].At > e.At; i-- {
		l.Events[i], l.Events[i-1] = l.Events[i-1], l.Events[i]
	}
}

// eventLogCap is the configured cap, or the default.
func (c *Config) eventLogCap() int {
	if c.EventLogCap > 0 {
		return c.EventLogCap
	}
	return DefaultEventLogCap
}

// instanceName names an instance as events do: "service[i]".
func (in *instance) name() string { return fmt.Sprintf("%s[%d]", in.svc.cfg.Name, in.idx) }

// logEvent records a state change.
func (m *Model) logEvent(at time.Duration, kind EventKind, subject, from, to, detail string) {
	m.events.add(Event{At: at, Kind: kind, Subject: subject, From: from, To: to, Detail: detail})
}
