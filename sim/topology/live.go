package topology

import "fmt"

// Live is a run's partial result while the run goes on, for drawing its
// overview live (the playground shows it while a long run is simulated):
// the time series and the event log so far, each client's name and
// schedule, each service's name and amplification so far, and the faults
// with the verdict "undetermined". It holds no other statistics: every
// count, mean and quantile of Live's clients and services is zero.
//
// Call Live only from an OnProgress callback, between two events. It
// reads the model and changes nothing, so a run that is looked at ends
// with the same result, to the byte, as one that is not (TestLiveChangesNothing).
// The Result shares the model's series and event log, which the run goes
// on extending after the callback returns: use it before returning.
func (m *Model) Live() *Result {
	now := m.sim.Now()
	res := m.head()
	var users uint64
	for _, c := range m.clients {
		users += c.st.win[kSent]
		res.Clients = append(res.Clients, ClientResult{Name: c.cfg.Name, Target: c.cfg.Target, Schedule: c.cfg.Schedule})
	}
	for _, s := range m.services {
		r := ServiceResult{Name: s.cfg.Name, Instances: len(s.insts)}
		if users > 0 {
			r.Amplification = float64(s.st.win[cOffered]) / float64(users)
		}
		res.Services = append(res.Services, r)
	}
	for _, f := range m.faults {
		res.Faults = append(res.Faults, FaultResult{
			Kind: f.cfg.Kind.String(), Target: f.cfg.Target, Label: f.label(),
			Start: f.cfg.Start, End: f.cfg.End,
			Recovery: Recovery{Verdict: VerdictUndetermined,
				Reason: fmt.Sprintf("the run is at %v of %v", now.Duration(), m.cfg.Duration)},
		})
	}
	return res
}
