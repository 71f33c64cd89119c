package engine

import "testing"

// ticker reschedules itself one nanosecond later, forever: a run that
// only a checkpoint hook can end.
type ticker struct{ s *Sim }

func (t ticker) Handle(now Time, _ any) { t.s.At(now+1, t, nil) }

// TestEveryBoundsAnEndlessRun: a hook every n events that stops at the
// k-th call ends the run after exactly n*k events, and a removed hook is
// never called again.
func TestEveryBoundsAnEndlessRun(t *testing.T) {
	steps := []struct{ n, stopAt, wantFired uint64 }{
		{1, 1, 1},
		{1, 5, 5},
		{1000, 3, 3000},
		{4096, 1, 4096},
	}
	for _, st := range steps {
		s := New(1)
		s.At(0, ticker{s}, nil)
		calls := uint64(0)
		s.Every(st.n, func() {
			calls++
			if calls == st.stopAt {
				s.Stop()
			}
		})
		s.Run()
		if s.Fired() != st.wantFired || calls != st.stopAt {
			t.Errorf("n=%d stop at call %d: fired %d, %d calls; want %d, %d", st.n, st.stopAt, s.Fired(), calls, st.wantFired, st.stopAt)
		}
		s.Every(0, nil)
		s.RunUntil(s.Now() + 100)
		if calls != st.stopAt {
			t.Errorf("n=%d: removed hook called again (%d calls)", st.n, calls)
		}
	}
}
