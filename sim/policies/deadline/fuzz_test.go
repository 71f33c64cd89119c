package deadline

import (
	"testing"
	"time"
)

// FuzzSlice checks, for arbitrary configs, deadlines and instants, that a
// slice never exceeds the time remaining minus the reserve, that a
// non-critical slice never exceeds the cap or the critical one, that ok
// means the slice is above MinSlice, that a propagated deadline is never
// later than the parent's, and that Remaining and Expired agree.
func FuzzSlice(f *testing.F) {
	f.Add(int64(50*ms), int64(80*ms), int64(0), true, int64(800*ms), int64(0), int64(100*ms))
	f.Add(int64(0), int64(1), int64(0), false, int64(0), int64(5), int64(7))
	f.Add(int64(10), int64(20), int64(5), true, int64(-100), int64(-200), int64(1<<62))
	f.Add(int64(10), int64(20), int64(5), true, int64(Forever-3), int64(-1<<62), int64(1))
	f.Fuzz(func(t *testing.T, reserve, capNS, minSlice int64, set bool, expiry, now, step int64) {
		p, err := New(Config{Reserve: time.Duration(reserve), NonCriticalCap: time.Duration(capNS), MinSlice: time.Duration(minSlice)})
		if err != nil {
			return
		}
		var d Deadline
		if set {
			d = At(time.Duration(expiry))
		}
		for _, at := range []time.Duration{time.Duration(now), time.Duration(now) + time.Duration(step&0xffffffff)} {
			rem := d.Remaining(at)
			if rem < 0 {
				t.Fatalf("negative remaining %v", rem)
			}
			if d.Expired(at) != (set && rem == 0) {
				t.Fatalf("Expired %v with remaining %v (set %v)", d.Expired(at), rem, set)
			}
			crit, cok := p.Slice(d, at, Critical)
			non, nok := p.Slice(d, at, NonCritical)
			if crit < 0 || non < 0 || crit > rem || non > crit || non > p.cfg.NonCriticalCap {
				t.Fatalf("slices critical %v non-critical %v for remaining %v", crit, non, rem)
			}
			if set && crit > max(rem-p.cfg.Reserve, 0) {
				t.Fatalf("critical slice %v ignores the reserve (remaining %v)", crit, rem)
			}
			if cok != (crit > p.cfg.MinSlice) || nok != (non > p.cfg.MinSlice) || (nok && !cok) {
				t.Fatalf("ok flags %v %v for slices %v %v", cok, nok, crit, non)
			}
			for _, c := range []Class{Critical, NonCritical} {
				child, _ := p.Propagate(d, at, c)
				if set && (!child.IsSet() || child.Remaining(at) > rem) {
					t.Fatalf("child %+v outlives parent %+v at %v", child, d, at)
				}
				if e, ok := child.Expiry(); ok && set && e > d.at && rem > 0 {
					t.Fatalf("child expires %v after parent %v", e, d.at)
				}
			}
		}
		// Remaining never grows as time passes.
		a, b := time.Duration(now), time.Duration(now)+time.Duration(step&0xffffffff)
		if d.Remaining(b) > d.Remaining(a) {
			t.Fatalf("remaining grew from %v to %v", d.Remaining(a), d.Remaining(b))
		}
	})
}
