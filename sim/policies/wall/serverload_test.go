package wall

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/codel"
	"github.com/ressim/ressim/sim/policies/lifo"
)

// TestServerUnderOverload drives a Server with each queue discipline
// through 400 ms of overload on a ManualClock: 3 requests arrive every
// millisecond, each takes 2 ms of service, and the cap is 4, so capacity is
// 2 per millisecond and a queue must build. A driver goroutine advances the
// clock one millisecond at a time, after synctest.Wait has seen every
// request goroutine blocked. It checks, at every step, that no more than the
// cap are in service and that the queue stays within its capacity, and at
// the end that every request was served or refused with a known sentinel
// and nothing is left in service or queued. With CoDel and adaptive LIFO
// the queue sheds by age (some requests are dropped from it); plain FIFO
// without deadlines only refuses arrivals when it is full.
func TestServerUnderOverload(t *testing.T) {
	lifoCfg := lifo.DefaultConfig()
	codelCfg := codel.DefaultConfig()
	for _, tt := range []struct {
		name string
		cfg  ServerConfig
	}{
		{"fifo", ServerConfig{}},
		{"codel", ServerConfig{CoDel: &codelCfg}},
		{"lifo", ServerConfig{LIFO: &lifoCfg}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := tt.cfg
				cfg.MaxConcurrent, cfg.QueueCapacity = 4, 40
				s, clock := newTestServer(t, cfg)
				const steps, perStep = 400, 3
				results := make(chan error, steps*perStep)
				for step := range steps {
					for range perStep {
						go func() {
							done, err := s.Acquire(context.Background(), policies.Normal)
							if err == nil {
								served := make(chan struct{})
								clock.AfterFunc(2*time.Millisecond, func() { close(served) })
								<-served
								done(policies.Success)
							}
							results <- err
						}()
					}
					synctest.Wait()
					if st := s.Stats(); st.InService > 4 || st.Queued > 40 {
						t.Fatalf("step %d: %+v beyond the cap or the queue", step, st)
					}
					clock.Advance(time.Millisecond)
				}
				for s.Stats() != (ServerStats{Limit: 4}) { // drain: let the last ones finish
					synctest.Wait()
					clock.Advance(time.Millisecond)
				}
				counts := map[string]int{}
				for range steps * perStep {
					switch err := <-results; {
					case err == nil:
						counts["served"]++
					case errors.Is(err, ErrLimited):
						counts["full"]++
					case errors.Is(err, ErrQueueTimeout):
						counts["dropped"]++
					default:
						t.Fatalf("unexpected refusal %v", err)
					}
				}
				t.Logf("%s: served %d, refused with a full queue %d, dropped from the queue %d",
					tt.name, counts["served"], counts["full"], counts["dropped"])
				if (counts["dropped"] > 0) != (tt.name != "fifo") {
					t.Errorf("%d dropped from the queue: want some with CoDel and LIFO, none with FIFO", counts["dropped"])
				}
				// 400 ms at 2 per ms of capacity: 800 served while the load
				// lasts (less a slot idle in the first millisecond, and a
				// few slot-milliseconds of slack), plus at most what was in
				// service or queued when it stopped (4 + 40) in the drain.
				if n := counts["served"]; n < 795 || n > 844 {
					t.Errorf("served %d, want 795 to 844", n)
				}
			})
		})
	}
}
