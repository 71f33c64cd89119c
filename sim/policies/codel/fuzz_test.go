package codel

import (
	"testing"
	"time"
)

// FuzzCoDel feeds CoDel arbitrary dequeues (sojourn times, backlogs, gaps)
// and empty-queue events, obeying the caller contract (after Drop, the next
// call is at the same instant), and checks the RFC's invariants: a request
// is dropped only when its sojourn time is at least Target, the backlog is
// above MaxPacket, and the sojourn time has been at or above Target
// continuously for at least Interval; Count is at least 1 while dropping;
// drop_next lies in the future right after a dequeue ends in Deliver while
// dropping; an entry drop schedules drop_next within (now, now+Interval].
func FuzzCoDel(f *testing.F) {
	f.Add([]byte{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 255, 255})
	f.Add([]byte{200, 1, 200, 1, 200, 1, 7, 200, 200, 200, 200, 200, 200})
	f.Fuzz(func(t *testing.T, ops []byte) {
		cfg := DefaultConfig()
		c, _ := New(cfg)
		var now time.Duration
		var streak bool
		var streakStart time.Duration
		last := Deliver
		for i, b := range ops {
			if last != Drop {
				now += time.Duration(b%16) * 7 * time.Millisecond
			}
			if b%16 == 15 { // empty queue
				c.Empty(now)
				streak = false
				last = Deliver
				continue
			}
			sojourn := time.Duration(b/16) * 2 * time.Millisecond // 0..30 ms
			backlog := int(b % 4)
			wasDropping := c.Dropping()
			if sojourn < cfg.Target || backlog <= cfg.MaxPacket {
				streak = false
			} else if !streak {
				streak, streakStart = true, now
			}
			v := c.Dequeue(now, now-sojourn, backlog)
			if v == Drop {
				if sojourn < cfg.Target || backlog <= cfg.MaxPacket {
					t.Fatalf("op %d at %v: dropped with sojourn %v backlog %d", i, now, sojourn, backlog)
				}
				if !streak || now < streakStart+cfg.Interval {
					t.Fatalf("op %d at %v: dropped before an interval above target (streak %v from %v)", i, now, streak, streakStart)
				}
				if !c.Dropping() {
					t.Fatalf("op %d: dropped outside the dropping state", i)
				}
				if !wasDropping && (c.DropNext() <= now || c.DropNext() > now+cfg.Interval) {
					t.Fatalf("op %d: entry drop scheduled drop_next %v at %v", i, c.DropNext(), now)
				}
			} else if c.Dropping() && c.DropNext() <= now && last != Drop && wasDropping {
				t.Fatalf("op %d at %v: delivered while drop_next %v was due", i, now, c.DropNext())
			}
			if c.Dropping() && c.Count() < 1 {
				t.Fatalf("op %d: dropping with count %d", i, c.Count())
			}
			last = v
		}
	})
}
