package health

import (
	"testing"
	"time"
)

// FuzzProbe drives a readiness or liveness probe with arbitrary results and
// restarts, and checks it against a model of consecutive passes and
// failures: a readiness probe is Ready exactly when its last run of passing
// probes reached SuccessThreshold since it was last Unready-by-failures; a
// transition happens only at a threshold; no probe runs while Restarting;
// the next probe is never earlier than a Period after the last.
func FuzzProbe(f *testing.F) {
	f.Add([]byte{0, 2, 3, 1, 1, 0, 0, 0, 1, 2, 0, 0, 0, 3})
	f.Add([]byte{1, 0, 2, 0, 0, 0, 3, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		cfg := DefaultConfig()
		live := data[0]&1 == 1
		cfg.FailureThreshold = 1 + int(data[2]%5)
		var p *Probe
		var err error
		if live {
			p, err = NewLiveness(cfg, 0)
		} else {
			cfg.SuccessThreshold = 1 + int(data[1]%4)
			p, err = NewReadiness(cfg, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		data = data[3:]
		var (
			now    time.Duration
			passes int // consecutive, uncapped
			fails  int
			want   = p.State()
		)
		for _, c := range data {
			next, has := p.NextProbeAt()
			if has != (p.State() != Restarting) {
				t.Fatalf("NextProbeAt ok=%v in %v", has, p.State())
			}
			if c%4 == 3 {
				now += time.Duration(c>>2) * sec
				tr, moved := p.Restarted(now)
				passes, fails = 0, 0
				initial := Unready
				if live {
					initial = Live
				}
				if moved != (want != initial) || (moved && (tr.From != want || tr.To != initial || tr.At != now)) {
					t.Fatalf("Restarted from %v: %+v, %v", want, tr, moved)
				}
				want = initial
				if n, _ := p.NextProbeAt(); n != now+cfg.InitialDelay {
					t.Fatalf("next probe %v after a restart at %v", n, now)
				}
				continue
			}
			if has {
				now = max(now, next)
			}
			pass := c%4 != 0
			took := time.Duration(c>>2) * 100 * ms
			tr, moved := p.Observe(now, pass, took)
			if want == Restarting {
				if moved {
					t.Fatalf("transition %+v while restarting", tr)
				}
				continue
			}
			ok := pass && took < cfg.Timeout // exactly Timeout has timed out, as in the kubelet
			if ok {
				passes, fails = passes+1, 0
			} else {
				passes, fails = 0, fails+1
			}
			prev := want
			switch {
			case want == Unready && passes >= cfg.SuccessThreshold:
				want = Ready
			case want == Ready && fails >= cfg.FailureThreshold:
				want = Unready
			case want == Live && fails >= cfg.FailureThreshold:
				want = Restarting
			}
			if p.State() != want || moved != (prev != want) {
				t.Fatalf("after %d passes %d fails from %v: state %v moved %v, want %v", passes, fails, prev, p.State(), moved, want)
			}
			if moved && (tr.From != prev || tr.To != want || tr.At != now+min(took, cfg.Timeout)) {
				t.Fatalf("transition %+v, want %v -> %v", tr, prev, want)
			}
			if n, has := p.NextProbeAt(); has && n < now+cfg.Period {
				t.Fatalf("next probe %v less than a period after %v", n, now)
			}
			s, fl := p.Counts()
			if s > cfg.SuccessThreshold || fl > cfg.FailureThreshold || (s > 0 && fl > 0) {
				t.Fatalf("counts %d, %d", s, fl)
			}
		}
	})
}
