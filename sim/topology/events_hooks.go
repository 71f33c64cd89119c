package topology

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/breaker"
	"github.com/ressim/ressim/sim/policies/health"
	"github.com/ressim/ressim/sim/policies/limit"
	"github.com/ressim/ressim/sim/policies/outlier"
)

// The policies' state changes, logged where the model applies them.

// breakerSync applies the lazy move of site's breaker from open to
// half-open, if its pause ended by now, and logs it at the pause's end.
// Every read of the breaker's state (Allow, the series' sample) goes
// through here first, so that the log misses no transition and the
// site's breakerState is the breaker's.
func (m *Model) breakerSync(now engine.Time, site *callSite) {
	g := &site.guards
	at, ok := g.breaker.NextProbeAt()
	if !ok || now.Duration() < at {
		return
	}
	if tr, moved := g.breaker.Refresh(now.Duration()); moved {
		m.logBreaker(at, site, tr)
	}
}

// logBreaker logs a breaker transition that happened at instant at.
func (m *Model) logBreaker(at time.Duration, site *callSite, tr breaker.Transition) {
	site.guards.breakerState = tr.To
	m.logEvent(at, EventBreaker, site.name(), tr.From.String(), tr.To.String(), tr.Reason.String())
}

// breakerAllow asks site's breaker whether a call may go now.
func (m *Model) breakerAllow(now engine.Time, site *callSite) (breaker.Permit, bool) {
	m.breakerSync(now, site)
	return site.guards.breaker.Allow(now.Duration())
}

// breakerRecord feeds an outcome to a site's breaker, counts trips, and
// logs the transition and, for a half-open probe, its outcome.
func (m *Model) breakerRecord(now engine.Time, site *callSite, p breaker.Permit, o policies.Outcome, lat time.Duration) {
	g := &site.guards
	b := g.breaker
	probe := g.breakerState == breaker.HalfOpen && p.Generation() == b.Generation() && !o.IsLocal()
	_, passed := b.Probes()
	tr, ok := b.Record(now.Duration(), p, o, lat)
	if probe {
		verdict := "passed"
		if ok && tr.Reason == breaker.ProbeFailed {
			verdict = "failed"
		}
		n := b.Config().PermittedNumberOfCallsInHalfOpenState
		m.logEvent(now.Duration(), EventProbe, site.name(), breaker.HalfOpen.String(), verdict, fmt.Sprintf("probe %d of %d", passed+1, n))
	}
	if !ok {
		return
	}
	m.logBreaker(now.Duration(), site, tr)
	if tr.To == breaker.Open {
		site.st.inc(m, now, sBreakerOpened)
	}
}

// logOutlier logs an ejection or a return.
func (s *service) logOutlier(now engine.Time, ev outlier.Event) {
	from, to := "in", "ejected"
	switch ev.Kind {
	case outlier.Ejected:
	case outlier.Unejected:
		from, to = to, from
	default:
		return // an overflow changes nothing
	}
	s.m.logEvent(now.Duration(), EventEjection, s.insts[ev.Host].name(), from, to, ev.Reason.String())
}

// logReadiness logs a readiness verdict that changed the instance's state.
func (in *instance) logReadiness(now engine.Time, wasReady bool) {
	if in.ready() == wasReady {
		return
	}
	from, to := health.Ready.String(), health.Unready.String()
	if in.ready() {
		from, to = to, from
	}
	in.svc.m.logEvent(now.Duration(), EventReadiness, in.name(), from, to, "")
}

// logLiveness logs a restart (to "restarting") or a return (to "live").
func (in *instance) logLiveness(now engine.Time, to health.State) {
	from := health.Live
	if to == health.Live {
		from = health.Restarting
	}
	in.svc.m.logEvent(now.Duration(), EventLiveness, in.name(), from.String(), to.String(), "")
}

// logLimit logs a limit's move if it is at least LimitStep away from the
// last recorded value (see LimitStep).
func (in *instance) logLimit(now engine.Time, tr limit.Transition) {
	if !tr.Changed() {
		return
	}
	if in.limitLogged == 0 {
		in.limitLogged = tr.From
	}
	last := in.limitLogged
	d := tr.To - last
	if d < 0 {
		d = -d
	}
	if d == 0 || float64(d) < LimitStep*float64(last) {
		return
	}
	in.limitLogged = tr.To
	in.svc.m.logEvent(now.Duration(), EventLimit, in.name(), strconv.Itoa(last), strconv.Itoa(tr.To), "")
}
