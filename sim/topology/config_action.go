package topology

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies/breaker"
)

// ActionKind is what a timed action does: an operator's move at one
// instant of the run (a setting changed, a kill switch flipped, a share
// of the load shed), as in a game day.
type ActionKind uint8

// Action kinds. Each says which of ActionConfig's fields it reads and
// what happens to the work already in flight.
const (
	// ActionRetryAttempts sets the retry attempts of the call site Call
	// (a client's or a step's) to Int. Every retry decision from the
	// action on uses the new count, against the attempts the call has
	// already made: a call that made 2 attempts under a new count of 1
	// makes no more. A retry already scheduled (waiting out its backoff)
	// is still sent.
	ActionRetryAttempts ActionKind = iota
	// ActionClientRate sets the open-loop client Client's rate (without a
	// schedule) to Value requests per second from the action on. Requests
	// already sent are unaffected; load faults on the client multiply the
	// new rate.
	ActionClientRate
	// ActionWorkers sets the workers (a synchronous service) or async
	// slots of every instance of Service to Int. Requests in service
	// finish; with fewer workers than are busy, new ones start only when
	// fewer than the new count are busy; with more, queued requests start
	// at once. A workers fault still removes its workers from the new
	// count while it lasts.
	ActionWorkers
	// ActionQueueCapacity sets the queue bound of every instance of
	// Service to Int. Requests already queued keep their places, even
	// beyond a lowered bound; arrivals are refused while the queue holds
	// the bound or more.
	ActionQueueCapacity
	// ActionKillSwitch turns the kill switch of the calls to Service
	// (from Caller, or from every caller) on (On) or off: while on, the
	// calls are not made and the fallback answers, or the call fails fast
	// without one (counted as killed_by_switch), as with a kill_switch
	// fault. Calls already sent go on.
	ActionKillSwitch
	// ActionShed makes the client Client refuse the share Value in [0, 1]
	// of its new user requests before sending them: they count as sent
	// and rejected, and send no attempt. 0 stops shedding. Requests
	// already sent are unaffected.
	ActionShed
	// ActionForceBreaker forces the breakers of the calls to Service
	// (from Caller, or from every caller) into mode Breaker: open (every
	// call refused as by an open breaker), closed (every call admitted,
	// no result recorded) or back to automatic (closed, with an empty
	// window; breaker.Breaker.Force). Calls already admitted go on; their
	// results are ignored by the breaker.
	ActionForceBreaker
	// ActionInstances sets the instances of Service in rotation to Int,
	// from 0 to the instances the configuration declares (no new instance
	// is allocated mid-run). The instances from index Int on leave the
	// rotation: callers send them nothing new, and they finish what they
	// have queued and running (a graceful drain, unlike a crash); an
	// instance brought back takes traffic at once. A crash fault or a
	// restart does not bring an instance back into the rotation.
	ActionInstances
)

var actionNames = [...]string{"retry_attempts", "client_rate", "workers", "queue_capacity", "kill_switch", "shed", "force_breaker", "instances"}

// String returns the action kind's name.
func (k ActionKind) String() string {
	if int(k) < len(actionNames) {
		return actionNames[k]
	}
	return "unknown"
}

// CallRef names one call site: a client's (Client), or the call Call of
// step Step of a service's handler (Service; Operation "" for the
// service's default handler), counted from 0.
type CallRef struct {
	Client             string
	Service, Operation string
	Step, Call         int
}

// String names the call site as the experiment file's path language
// does: "client.users", "service.api.step.1", "service.api.operation.get.step.0.parallel.1".
func (r CallRef) String() string {
	if r.Client != "" {
		return "client." + r.Client
	}
	var b strings.Builder
	b.WriteString("service." + r.Service)
	if r.Operation != "" {
		b.WriteString(".operation." + r.Operation)
	}
	b.WriteString(".step." + strconv.Itoa(r.Step))
	if r.Call > 0 {
		b.WriteString(".call." + strconv.Itoa(r.Call))
	}
	return b.String()
}

// ActionConfig is one timed action: at instant At, the change Kind says.
// Actions run as events of the run, in the order of At (actions at the
// same instant in the order of Config.Actions), after any fault that
// starts or ends at the same instant.
type ActionConfig struct {
	// At is the action's instant, in [0, Duration).
	At   time.Duration
	Kind ActionKind
	// Label names the action in reports and the event log; empty means
	// the Subject.
	Label string
	// Subject is what the action changes, as the experiment file named
	// it ("client.users.retry.attempts", "kill_switch recommendations");
	// empty means one generated from the kind and target.
	Subject string
	// Client: ActionClientRate's and ActionShed's client.
	Client string
	// Service: ActionWorkers', ActionQueueCapacity's, ActionInstances',
	// and ActionKillSwitch's and ActionForceBreaker's callee.
	Service string
	// Caller limits ActionKillSwitch and ActionForceBreaker to the calls
	// made by one service (or "client:NAME"); empty means every caller.
	Caller string
	// Call: ActionRetryAttempts' call site.
	Call CallRef
	// Int: the new retry attempts, workers, queue bound or instances.
	Int int
	// Breaker: ActionForceBreaker's mode.
	Breaker breaker.Mode
	// Value: the new rate (requests per second) or shed share.
	Value float64
	// On: ActionKillSwitch's new position.
	On bool
}

// ReportLabel is the action's name in reports: its Label, or its
// subject.
func (a ActionConfig) ReportLabel() string {
	if a.Label != "" {
		return a.Label
	}
	return a.subject()
}

// subject is Subject, or one made from the kind and target.
func (a ActionConfig) subject() string {
	if a.Subject != "" {
		return a.Subject
	}
	switch a.Kind {
	case ActionRetryAttempts:
		return a.Call.String() + ".retry.attempts"
	case ActionClientRate:
		return "client." + a.Client + ".rate"
	case ActionWorkers:
		return "service." + a.Service + ".workers"
	case ActionQueueCapacity:
		return "service." + a.Service + ".queue_capacity"
	case ActionKillSwitch:
		s := "kill_switch " + a.Service
		if a.Caller != "" {
			s += " from " + a.Caller
		}
		return s
	case ActionShed:
		return "shed " + a.Client
	case ActionForceBreaker:
		s := "force_breaker " + a.Service
		if a.Caller != "" {
			s += " from " + a.Caller
		}
		return s
	case ActionInstances:
		return "instances " + a.Service
	}
	return a.Kind.String()
}

// validate checks an action against the configuration it belongs to.
func (a *ActionConfig) validate(c *Config, svcs map[string]int) error {
	if a.At < 0 || a.At >= c.Duration {
		return bad("at must be in [0, duration %v), got %v", c.Duration, a.At)
	}
	if int(a.Kind) >= len(actionNames) {
		return bad("unknown action kind %d", a.Kind)
	}
	switch a.Kind {
	case ActionRetryAttempts, ActionClientRate, ActionShed:
		return a.validateClientSide(c, svcs)
	}
	return a.validateServiceSide(c, svcs)
}

// client returns the action's client.
func (a *ActionConfig) client(c *Config) (*ClientConfig, error) {
	i := slices.IndexFunc(c.Clients, func(cl ClientConfig) bool { return cl.Name == a.Client })
	if i < 0 {
		return nil, bad("unknown client %q", a.Client)
	}
	return &c.Clients[i], nil
}

// validateClientSide checks the actions on a call site or a client.
func (a *ActionConfig) validateClientSide(c *Config, svcs map[string]int) error {
	switch a.Kind {
	case ActionRetryAttempts:
		p, err := c.callPolicy(a.Call, svcs)
		if err != nil {
			return err
		}
		if p.hedges() {
			return bad("call %s hedges; its attempts are hedge.attempts, which cannot change mid-run", a.Call)
		}
		return wrapBad(SettingRetryAttempts.checkInt(a.Int))
	case ActionClientRate:
		cl, err := a.client(c)
		if err != nil {
			return err
		}
		if cl.Users > 0 || len(cl.Schedule) > 0 {
			return bad("client %q is closed-loop or has a schedule: only a constant open-loop rate can change mid-run", a.Client)
		}
		return wrapBad(SettingClientRate.check(a.Value))
	}
	if _, err := a.client(c); err != nil { // ActionShed
		return err
	}
	if !(a.Value >= 0 && a.Value <= 1) {
		return bad("share must be in [0, 1], got %g", a.Value)
	}
	return nil
}

// validateServiceSide checks the actions on a service or its callers.
func (a *ActionConfig) validateServiceSide(c *Config, svcs map[string]int) error {
	i, ok := svcs[a.Service]
	if !ok {
		return bad("unknown service %q", a.Service)
	}
	s := &c.Services[i]
	switch a.Kind {
	case ActionWorkers:
		if s.Mode == Async {
			return wrapBad(SettingMaxInFlight.checkInt(a.Int))
		}
		return wrapBad(SettingWorkers.checkInt(a.Int))
	case ActionQueueCapacity:
		switch {
		case s.Mode == Async:
			return bad("service %q is async: it has no queue", a.Service)
		case s.Admission.LIFO != nil:
			return bad("service %q uses lifo, whose queue bound cannot change mid-run", a.Service)
		case a.Int < 0:
			return bad("queue_capacity must be >= 0, got %d", a.Int)
		}
		return wrapBad(SettingQueueCapacity.checkInt(a.Int))
	case ActionKillSwitch, ActionForceBreaker:
		if name, isClient := strings.CutPrefix(a.Caller, "client:"); isClient {
			if !slices.ContainsFunc(c.Clients, func(cl ClientConfig) bool { return cl.Name == name }) {
				return bad("unknown caller client %q", name)
			}
		} else if _, ok := svcs[a.Caller]; a.Caller != "" && !ok {
			return bad("unknown caller service %q", a.Caller)
		}
		if a.Kind == ActionKillSwitch {
			return nil
		}
		if a.Breaker > breaker.ForcedClosed {
			return bad("unknown breaker mode %d", a.Breaker)
		}
		if c.BreakerCalls(a.Service, a.Caller) == 0 {
			return bad("%s: no call has a breaker", a.subject())
		}
		return nil
	case ActionInstances:
		n := max(s.Instances, 1)
		if a.Int < 0 || a.Int > n {
			return bad("instances must be in [0, %d], the service's instances (an action cannot add instances the file does not declare), got %d", n, a.Int)
		}
		return nil
	}
	return bad("unknown action kind %d", a.Kind)
}

// BreakerCalls counts the calls to target (from caller, a service or
// "client:NAME", or from every caller if caller is empty) that have a
// breaker: the calls a force_breaker action forces.
func (c *Config) BreakerCalls(target, caller string) int {
	n := 0
	for _, cl := range c.Clients {
		if cl.Target == target && (caller == "" || caller == "client:"+cl.Name) && cl.Call.Guards.Breaker != nil {
			n++
		}
	}
	for i := range c.Services {
		s := &c.Services[i]
		if caller != "" && caller != s.Name {
			continue
		}
		for _, steps := range s.handlers() {
			for _, st := range steps {
				for _, cc := range st.Calls {
					if cc.Service == target && cc.Policy.Guards.Breaker != nil {
						n++
					}
				}
			}
		}
	}
	return n
}

// callPolicy returns the policy of the call site r names.
func (c *Config) callPolicy(r CallRef, svcs map[string]int) (*CallPolicy, error) {
	if r.Client != "" {
		i := slices.IndexFunc(c.Clients, func(cl ClientConfig) bool { return cl.Name == r.Client })
		if i < 0 {
			return nil, bad("unknown client %q", r.Client)
		}
		return &c.Clients[i].Call, nil
	}
	i, ok := svcs[r.Service]
	if !ok {
		return nil, bad("unknown service %q", r.Service)
	}
	s := &c.Services[i]
	steps := s.Steps
	if r.Operation != "" {
		j := slices.IndexFunc(s.Operations, func(o Operation) bool { return o.Name == r.Operation })
		if j < 0 {
			return nil, bad("service %q has no operation %q", r.Service, r.Operation)
		}
		steps = s.Operations[j].Steps
	}
	if r.Step < 0 || r.Step >= len(steps) || r.Call < 0 || r.Call >= len(steps[r.Step].Calls) {
		return nil, bad("no call %s", r)
	}
	return &steps[r.Step].Calls[r.Call].Policy, nil
}

// ValidateAction checks a alone against c, which must be valid, as
// Validate checks each of c.Actions: what the action may not do mid-run
// (a queue bound for an async service, the attempts of a hedging call).
// The error wraps ErrConfig.
func (c *Config) ValidateAction(a ActionConfig) error {
	svcs, err := c.serviceIndex()
	if err != nil {
		return err
	}
	return a.validate(c, svcs)
}

// validateActions checks every action.
func (c *Config) validateActions(svcs map[string]int) error {
	for i := range c.Actions {
		a := &c.Actions[i]
		if err := a.validate(c, svcs); err != nil {
			return fmt.Errorf("action %d (%s): %w", i, a.Kind, err)
		}
	}
	return nil
}
