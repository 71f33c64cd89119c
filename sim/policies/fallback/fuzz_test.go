package fallback

import (
	"testing"
	"time"
)

// FuzzFeature drives a Feature with arbitrary requests, failures, kills,
// revivals and checks, and checks the invariants: Fail only moves down the
// hierarchy and skips unavailable levels; a killed feature never starts at
// Fresh; Stale is offered only for a cached value within MaxAge+MaxStale;
// the counters add up to the answers served; the alert is raised only
// after at least AlertAfter since the start of the degraded run, and only
// at a window boundary crossed by the call.
func FuzzFeature(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{200, 201, 202, 203, 204, 205, 206, 207, 64, 65, 66, 67})
	f.Fuzz(func(t *testing.T, ops []byte) {
		cfg := DefaultConfig()
		cfg.MaxAge, cfg.MaxStale = 20*sec, 40*sec
		cfg.Window, cfg.AlertAfter = 10*sec, 30*sec
		ft, _ := New(cfg)
		var now time.Duration
		var served uint64
		for i, b := range ops {
			now += time.Duration(b%8) * 3 * sec
			switch b >> 6 {
			case 0, 1: // a request
				cached := Cached{Present: b&1 == 1, StoredAt: now - time.Duration(b>>1&0x1f)*3*sec}
				a := ft.Begin(now, cached)
				if ft.KillSwitch().Killed && a.Level() == Fresh {
					t.Fatalf("op %d: killed feature starts at Fresh", i)
				}
				for j := 0; j < int(b>>4&3); j++ {
					prev := a.Level()
					next := a.Fail()
					if next < prev || (next == prev && prev != SystemError) {
						t.Fatalf("op %d: Fail went %v -> %v", i, prev, next)
					}
					if next == Stale {
						age := now - cached.StoredAt
						if !cached.Present || age > cfg.MaxAge+cfg.MaxStale || age < 0 {
							t.Fatalf("op %d: Stale offered for %+v at %v", i, cached, now)
						}
					}
				}
				before, _ := ft.Alerting()
				c := ft.Serve(now, a)
				served++
				if c.From != before {
					t.Fatalf("op %d: From %v, was %v", i, c.From, before)
				}
				if c.To && now-c.DegradedSince < cfg.AlertAfter {
					t.Fatalf("op %d: alert at %v for a run since %v", i, now, c.DegradedSince)
				}
			case 2:
				if b&1 == 1 {
					ft.Kill(now, "fuzz")
				} else {
					ft.Revive(now, "fuzz")
				}
			case 3:
				c := ft.Check(now)
				if c.To && now-c.DegradedSince < cfg.AlertAfter {
					t.Fatalf("op %d: alert at %v for a run since %v", i, now, c.DegradedSince)
				}
				if ft.NextCheckAt() <= now {
					t.Fatalf("op %d: NextCheckAt %v not after %v", i, ft.NextCheckAt(), now)
				}
			}
		}
		var sum uint64
		for _, n := range ft.Stats().Served {
			sum += n
		}
		if sum != served {
			t.Fatalf("counters add to %d, served %d", sum, served)
		}
	})
}
