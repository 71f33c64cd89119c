package shed

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// FuzzShedder checks, over arbitrary thresholds and requests, that
// shedding is bottom-up (if a class is admitted at some utilisation, every
// more critical class is too), that Critical with the default threshold 1
// is shed only when full, that rejections always carry a status and a
// positive Retry-After, and that the counters add up.
func FuzzShedder(f *testing.F) {
	f.Add(uint8(100), uint8(80), uint8(50), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add(uint8(255), uint8(1), uint8(1), []byte{200, 201, 202, 99, 100, 101})
	f.Fuzz(func(t *testing.T, tc, tn, tb uint8, reqs []byte) {
		cfg := DefaultConfig()
		cfg.Threshold = [3]float64{float64(tc%100+1) / 100, float64(tn%100+1) / 100, float64(tb%100+1) / 100}
		// Sort into a valid, bottom-up order.
		if cfg.Threshold[1] > cfg.Threshold[0] {
			cfg.Threshold[0], cfg.Threshold[1] = cfg.Threshold[1], cfg.Threshold[0]
		}
		if cfg.Threshold[2] > cfg.Threshold[1] {
			cfg.Threshold[1], cfg.Threshold[2] = cfg.Threshold[2], cfg.Threshold[1]
		}
		if cfg.Threshold[1] > cfg.Threshold[0] {
			cfg.Threshold[0], cfg.Threshold[1] = cfg.Threshold[1], cfg.Threshold[0]
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatalf("valid config rejected: %v", err)
		}
		def, _ := New(DefaultConfig())
		var n uint64
		for i, b := range reqs {
			p := policies.Priority(b % 4) // 3 is out of range
			used, capacity := int(b/4)%12, 10
			d := s.Admit(time.Duration(i), p, used, capacity)
			n++
			if !d.Admitted && (d.Status == 0 || d.RetryAfter <= 0) {
				t.Fatalf("rejection without status or Retry-After: %+v", d)
			}
			u := Utilization(used, capacity)
			for q := policies.Priority(0); q < d.Priority; q++ {
				if d.Admitted && s.Sheds(q, u) {
					t.Fatalf("%v admitted at %v but more critical %v shed", d.Priority, u, q)
				}
			}
			if dc := def.Admit(0, policies.Critical, used, capacity); dc.Admitted != (used < capacity) {
				t.Fatalf("default critical with %d/%d: admitted %v", used, capacity, dc.Admitted)
			}
		}
		st := s.Stats()
		var sum uint64
		for p := 0; p < policies.NumPriorities; p++ {
			sum += st.Admitted[p] + st.Shed[p]
		}
		if sum != n {
			t.Fatalf("counters add to %d, want %d", sum, n)
		}
	})
}
