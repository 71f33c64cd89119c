package outlier

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzDetector drives a detector with arbitrary results and sweeps and
// checks: never more ejected hosts than max_ejection_percent allows (or one
// with always_eject_one_host); events consistent with the host states;
// un-ejection exactly at the sweep NextUnejectAt predicted (when sweeps
// come on time); ejection time
// and backoff within their bounds.
func FuzzDetector(f *testing.F) {
	f.Add([]byte{3, 50, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 0, 0, 0, 0, 9, 9, 9})
	f.Add([]byte{7, 100, 1, 1, 9, 1, 9, 1, 9, 1, 9, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		cfg := DefaultConfig()
		n := 1 + int(data[0]%8)
		cfg.MaxEjectionPercent = int(data[1] % 101)
		cfg.AlwaysEjectOneHost = data[2]&1 == 1
		cfg.Consecutive5xx = 1 + int(data[2]>>1)%5
		cfg.SuccessRateMinimumHosts = 1 + int(data[2]>>4)%4
		cfg.SuccessRateRequestVolume = 3
		cfg.MaxEjectionTime = 90 * sec
		d, err := New(cfg, n, 0)
		if err != nil {
			t.Fatal(err)
		}
		data = data[3:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			c := data[0]
			data = data[1:]
			return c
		}
		now := time.Duration(0)
		ejectedAt := make([]time.Duration, n)
		ejectedFor := make([]time.Duration, n)
		var evs []Event
		check := func(e Event, wasEjected bool) {
			switch e.Kind {
			case Ejected:
				if wasEjected {
					t.Fatalf("host %d ejected twice: %+v", e.Host, e)
				}
				if e.EjectedFor < cfg.BaseEjectionTime || e.EjectedFor > cfg.MaxEjectionTime {
					t.Fatalf("ejection time %v out of bounds", e.EjectedFor)
				}
				ejectedAt[e.Host], ejectedFor[e.Host] = now, e.EjectedFor
			case Unejected:
				if !wasEjected || now-ejectedAt[e.Host] < ejectedFor[e.Host] {
					t.Fatalf("host %d unejected at %v, ejected at %v for %v", e.Host, now, ejectedAt[e.Host], ejectedFor[e.Host])
				}
			case Overflow:
				if wasEjected {
					t.Fatalf("overflow for an ejected host %+v", e)
				}
			default:
				t.Fatalf("bad event %+v", e)
			}
			if (e.Kind == Ejected) != d.Ejected(e.Host) {
				t.Fatalf("event %+v but Ejected(%d) = %v", e, e.Host, d.Ejected(e.Host))
			}
		}
		for len(data) > 0 {
			c := next()
			if c%4 == 0 { // sweep, on time or late
				predicted, any := d.NextUnejectAt()
				late := time.Duration(c>>2%4) * sec
				now = max(now, d.NextTickAt()) + late
				onTime := late == 0 && now == d.NextTickAt()
				was := make([]bool, n)
				for h := range n {
					was[h] = d.Ejected(h)
				}
				evs = d.Tick(now, evs[:0])
				unejected := false
				for _, e := range evs {
					check(e, was[e.Host])
					was[e.Host] = e.Kind == Ejected
					unejected = unejected || e.Kind == Unejected
				}
				if onTime && any && now == predicted && !unejected {
					t.Fatalf("no un-ejection at the predicted %v", predicted)
				}
				if onTime && any && now < predicted && unejected {
					t.Fatalf("un-ejection at %v before the predicted %v", now, predicted)
				}
			} else {
				h := int(next()) % n
				o := policies.Outcome(c % 8)
				was := d.Ejected(h)
				if e, ok := d.Record(now, h, o); ok {
					if e.Host != h || e.At != now {
						t.Fatalf("Record(%d) event %+v", h, e)
					}
					check(e, was)
				}
			}
			count := 0
			for h := range n {
				if d.Ejected(h) {
					count++
				}
				if b := d.Backoff(h); b < 0 || b > int(cfg.MaxEjectionTime/cfg.BaseEjectionTime)+1 {
					t.Fatalf("host %d backoff %d", h, b)
				}
			}
			if count != d.EjectedCount() {
				t.Fatalf("EjectedCount %d, counted %d", d.EjectedCount(), count)
			}
			if 100*count > cfg.MaxEjectionPercent*n && !(cfg.AlwaysEjectOneHost && count == 1) {
				t.Fatalf("%d of %d hosts ejected, max %d %%", count, n, cfg.MaxEjectionPercent)
			}
		}
	})
}
