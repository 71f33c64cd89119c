package topology

import (
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
)

// A request served before its deadline cancels the event that would have
// removed it (on_expiry) or marked it expired (at_dequeue): with a
// deadline no request reaches, both runs follow the same sample path, and
// fire the same events, as the run without propagated deadlines, whose
// queue schedules none.
func TestExpiryTimerCancelledWhenServed(t *testing.T) {
	run := func(propagate bool, ab Abandonment) *Result {
		t.Helper()
		cfg := Config{
			Name: "cancel", Duration: 20 * time.Second, Warmup: time.Second, Seed: 5,
			PropagateDeadlines: propagate,
			Clients: []ClientConfig{{Name: "users", Target: "server", Rate: 950,
				Deadline: dist.Must(dist.Params{Kind: dist.Constant, Mean: 10 * time.Second})}},
			Services: []ServiceConfig{{Name: "server", Workers: 10, QueueCapacity: -1, Abandonment: ab,
				Steps: []Step{{Kind: WorkStep, Work: dist.Must(exp(10 * ms))}}}},
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	base := run(false, AtDequeue)
	if base.Services[0].MeanQueue < 1 {
		t.Fatalf("mean queue %g: the test needs a queue", base.Services[0].MeanQueue)
	}
	for _, ab := range []Abandonment{AtDequeue, OnExpiry} {
		res := run(true, ab)
		s, b := res.Services[0], base.Services[0]
		if res.Events != base.Events {
			t.Errorf("%v: %d events, want %d: a deadline event fired for a request already served", ab, res.Events, base.Events)
		}
		if s.Dropped != 0 || s.MeanExpiredInQueue != 0 {
			t.Errorf("%v: dropped %d, expired in queue %g; want none", ab, s.Dropped, s.MeanExpiredInQueue)
		}
		if s.MeanQueue != b.MeanQueue || s.MeanInSystem != b.MeanInSystem || s.Sojourn.Mean() != b.Sojourn.Mean() {
			t.Errorf("%v: queue %g, in system %g, sojourn %g; want the same path as without deadlines: %g, %g, %g",
				ab, s.MeanQueue, s.MeanInSystem, s.Sojourn.Mean(), b.MeanQueue, b.MeanInSystem, b.Sojourn.Mean())
		}
	}
}

// The queue counters stay consistent with the queues themselves through
// overload, CoDel drops, caller timeouts, retries and a crash: waiting
// plus expired-but-queued is what the queues hold, and the requests in
// the system are those in service plus those waiting.
func TestAbandonmentCountersConsistent(t *testing.T) {
	for _, tc := range []struct {
		ab  Abandonment
		adm Admission
	}{
		{AtDequeue, Admission{}},
		{OnExpiry, Admission{}},
		{AtDequeue, Admission{CoDel: ptr(codel.DefaultConfig())}},
		{OnExpiry, Admission{CoDel: ptr(codel.DefaultConfig())}},
		{AtDequeue, Admission{LIFO: ptr(lifo.DefaultConfig())}},
	} {
		cfg := Config{Name: "counters", Duration: 30 * time.Second, Interval: time.Second, Seed: 3, PropagateDeadlines: true,
			Clients: []ClientConfig{{Name: "c", Target: "s", Rate: 1200,
				Deadline: dist.Must(exp(80 * ms)), Call: CallPolicy{Timeout: 60 * ms, Retry: retries(2)}}},
			Services: []ServiceConfig{{Name: "s", Instances: 2, Workers: 5, QueueCapacity: 40, Abandonment: tc.ab,
				Admission: tc.adm, Steps: work(expo(10 * ms))}},
			Faults: []FaultConfig{{Kind: CrashFault, Target: "s", Instance: 0, Start: 10 * time.Second, End: 12 * time.Second, Count: 1}},
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run()
		if err != nil {
			t.Fatal(err)
		}
		s := m.services[0]
		queued, busy := 0, 0
		for _, in := range s.insts {
			queued += in.queueLen()
			busy += in.busy
		}
		st := &s.st
		name := tc.ab.String()
		if tc.adm.CoDel != nil {
			name += "+codel"
		}
		if tc.adm.LIFO != nil {
			name += "+lifo"
		}
		if st.queue.Value()+st.expired.Value() != int64(queued) || st.queue.Value() < 0 || st.expired.Value() < 0 {
			t.Errorf("%s: waiting %d + expired %d, queues hold %d", name, st.queue.Value(), st.expired.Value(), queued)
		}
		if st.inSystem.Value() != int64(busy)+st.queue.Value() || st.busy.Value() != int64(busy) {
			t.Errorf("%s: in system %d, busy %d (counted %d), waiting %d", name, st.inSystem.Value(), busy, st.busy.Value(), st.queue.Value())
		}
		r := res.Services[0]
		// (Adaptive LIFO drops the expired itself, as queue drops.)
		if r.Dropped+r.QueueDropped == 0 || r.Killed == 0 {
			t.Errorf("%s: dropped %d+%d, killed %d: the test should exercise both", name, r.Dropped, r.QueueDropped, r.Killed)
		}
		if tc.ab == OnExpiry && r.MeanExpiredInQueue != 0 {
			t.Errorf("%s: %g expired requests queued on average, want 0", name, r.MeanExpiredInQueue)
		}
		if tc.ab == AtDequeue && tc.adm.LIFO == nil && !(r.MeanExpiredInQueue > 0) {
			t.Errorf("%s: no expired request queued, the test should have some", name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestAbandonmentValidation(t *testing.T) {
	base := func(propagate bool, ab Abandonment, adm Admission) Config {
		return Config{Name: "v", Duration: time.Second, PropagateDeadlines: propagate,
			Clients:  []ClientConfig{{Name: "c", Target: "s", Rate: 10}},
			Services: []ServiceConfig{{Name: "s", Workers: 1, QueueCapacity: 5, Abandonment: ab, Admission: adm, Steps: work(expo(ms))}}}
	}
	for _, tt := range []struct {
		cfg  Config
		want string // "" for valid
	}{
		{base(false, AtDequeue, Admission{}), ""},
		{base(true, OnExpiry, Admission{}), ""},
		{base(true, OnExpiry, Admission{CoDel: ptr(codel.DefaultConfig())}), ""},
		{base(false, OnExpiry, Admission{}), `service "s": abandonment on_expiry needs propagate_deadlines`},
		{base(true, OnExpiry, Admission{LIFO: ptr(lifo.DefaultConfig())}), `service "s": abandonment on_expiry does not combine with lifo`},
		{base(true, Abandonment(9), Admission{}), `service "s": unknown abandonment`},
	} {
		err := tt.cfg.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.cfg.Services[0].Abandonment, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: err = %v, want %q", tt.cfg.Services[0].Abandonment, err, tt.want)
		}
	}
}

// The expired_in_queue column exists where requests can expire in the
// queue and stay there: with propagated deadlines and at_dequeue.
func TestExpiredInQueueColumn(t *testing.T) {
	for _, tt := range []struct {
		propagate bool
		ab        Abandonment
		want      bool
	}{{false, AtDequeue, false}, {true, AtDequeue, true}, {true, OnExpiry, false}} {
		cfg := Config{Name: "col", Duration: 5 * time.Second, PropagateDeadlines: tt.propagate,
			Clients: []ClientConfig{{Name: "c", Target: "s", Rate: 300, Deadline: dist.Must(exp(20 * ms))}},
			Services: []ServiceConfig{{Name: "s", Workers: 2, QueueCapacity: -1, Abandonment: tt.ab,
				Steps: work(expo(10 * ms))}}}
		res := mustRun(t, cfg)
		col := res.Series.Find("s", "expired_in_queue")
		if (col != nil) != tt.want {
			t.Errorf("propagate %v, %v: column present %v, want %v", tt.propagate, tt.ab, col != nil, tt.want)
		}
		if tt.want && !(res.Services[0].MeanExpiredInQueue > 0) {
			t.Errorf("propagate %v, %v: MeanExpiredInQueue %g at rho 1.5", tt.propagate, tt.ab, res.Services[0].MeanExpiredInQueue)
		}
	}
}
