package codel

import (
	"errors"
	"math"
	"testing"
	"time"
)

const ms = time.Millisecond

// interval/sqrt(n) for the default 100 ms interval, as control_law computes it.
func spacing(n float64) time.Duration {
	return time.Duration(float64(100*ms) / math.Sqrt(n))
}

const any = time.Duration(-1) // wantNext: do not check

type step struct {
	at       time.Duration
	action   string        // "deq" or "empty"
	sojourn  time.Duration // deq: now - enqueuedAt
	backlog  int           // deq: requests left behind the dequeued one
	want     Verdict       // deq
	dropping bool          // Dropping() after
	count    uint32        // Count() after
	wantNext time.Duration // DropNext() after, or any
}

func runSteps(t *testing.T, c *CoDel, steps []step) {
	t.Helper()
	for i, s := range steps {
		switch s.action {
		case "deq":
			if got := c.Dequeue(s.at, s.at-s.sojourn, s.backlog); got != s.want {
				t.Errorf("step %d at %v (sojourn %v): %v, want %v", i, s.at, s.sojourn, got, s.want)
			}
		case "empty":
			c.Empty(s.at)
		default:
			t.Fatalf("step %d: bad action %q", i, s.action)
		}
		if c.Dropping() != s.dropping {
			t.Errorf("step %d at %v: Dropping %v, want %v", i, s.at, c.Dropping(), s.dropping)
		}
		if c.Count() != s.count {
			t.Errorf("step %d at %v: Count %d, want %d", i, s.at, c.Count(), s.count)
		}
		if s.wantNext != any && c.DropNext() != s.wantNext {
			t.Errorf("step %d at %v: DropNext %v, want %v", i, s.at, c.DropNext(), s.wantNext)
		}
	}
}

func newDefault(t *testing.T) *CoDel {
	t.Helper()
	c, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// No drops while the sojourn time stays below Target, however long the
// queue (RFC 8289 section 4: a good queue is not dropped from).
func TestNoDropBelowTarget(t *testing.T) {
	c := newDefault(t)
	for now := time.Duration(0); now < 2*time.Second; now += ms {
		if v := c.Dequeue(now, now-4999*time.Microsecond, 1000); v != Deliver {
			t.Fatalf("at %v: %v with sojourn below target", now, v)
		}
	}
	if _, above := c.FirstAboveTime(); above || c.Dropping() {
		t.Error("state left the initial one")
	}
}

// First drop once the sojourn time has stayed at or above Target for a
// whole Interval; drop spacing shrinks as Interval/sqrt(count); leaving the
// dropping state when the sojourn time falls below Target.
func TestDropCycle(t *testing.T) {
	c := newDefault(t)
	runSteps(t, c, []step{
		{at: 0, action: "deq", sojourn: 5 * ms, backlog: 10, want: Deliver, wantNext: any},                                       // at target: first_above_time = 100 ms
		{at: 50 * ms, action: "deq", sojourn: 30 * ms, backlog: 10, want: Deliver, wantNext: any},                                // above, but not for an interval
		{at: 99 * ms, action: "deq", sojourn: 30 * ms, backlog: 10, want: Deliver, wantNext: any},                                // 1 ms short
		{at: 100 * ms, action: "deq", sojourn: 30 * ms, backlog: 10, want: Drop, dropping: true, count: 1, wantNext: 200 * ms},   // enter: drop, drop_next = now + 100/sqrt(1)
		{at: 100 * ms, action: "deq", sojourn: 30 * ms, backlog: 9, want: Deliver, dropping: true, count: 1, wantNext: 200 * ms}, // the request after the entry drop is delivered
		{at: 150 * ms, action: "deq", sojourn: 30 * ms, backlog: 9, want: Deliver, dropping: true, count: 1, wantNext: 200 * ms}, // before drop_next
		{at: 200 * ms, action: "deq", sojourn: 30 * ms, backlog: 9, want: Drop, dropping: true, count: 2, wantNext: 200 * ms},    // drop_next reached
		{at: 200 * ms, action: "deq", sojourn: 30 * ms, backlog: 8, want: Deliver, dropping: true, count: 2, wantNext: 200*ms + spacing(2)},
		{at: 270 * ms, action: "deq", sojourn: 30 * ms, backlog: 8, want: Deliver, dropping: true, count: 2, wantNext: 200*ms + spacing(2)}, // 270 < 270.71
		{at: 271 * ms, action: "deq", sojourn: 30 * ms, backlog: 8, want: Drop, dropping: true, count: 3, wantNext: any},
		{at: 271 * ms, action: "deq", sojourn: 30 * ms, backlog: 7, want: Deliver, dropping: true, count: 3, wantNext: 200*ms + spacing(2) + spacing(3)},
		{at: 329 * ms, action: "deq", sojourn: 30 * ms, backlog: 7, want: Drop, dropping: true, count: 4, wantNext: any}, // 328.45 reached
		{at: 329 * ms, action: "deq", sojourn: 30 * ms, backlog: 6, want: Deliver, dropping: true, count: 4, wantNext: 200*ms + spacing(2) + spacing(3) + spacing(4)},
		{at: 340 * ms, action: "deq", sojourn: 4 * ms, backlog: 6, want: Deliver, dropping: false, count: 4, wantNext: any},  // below target: leave
		{at: 341 * ms, action: "deq", sojourn: 30 * ms, backlog: 6, want: Deliver, dropping: false, count: 4, wantNext: any}, // above again: a new interval starts
		{at: 440 * ms, action: "deq", sojourn: 30 * ms, backlog: 6, want: Deliver, dropping: false, count: 4, wantNext: any},
	})
	// Spacings: 100, 70.7, 57.7, 50 ms.
	if d := spacing(2) - spacing(3); d <= 0 {
		t.Errorf("spacing does not shrink: %v", d)
	}
}

// Several drops in one dequeue: when drop_next is far behind now, the
// inner loop of section 5.5 drops request after request, each advancing
// drop_next by Interval/sqrt(count), until drop_next passes now.
func TestDropLoop(t *testing.T) {
	c := newDefault(t)
	next := 200 * ms
	steps := []step{
		{at: 0, action: "deq", sojourn: 50 * ms, backlog: 100, want: Deliver, wantNext: any},
		{at: 100 * ms, action: "deq", sojourn: 50 * ms, backlog: 100, want: Drop, dropping: true, count: 1, wantNext: next},
		{at: 100 * ms, action: "deq", sojourn: 50 * ms, backlog: 99, want: Deliver, dropping: true, count: 1, wantNext: next},
	}
	// At 400 ms drop_next (200 ms) is far behind: the loop drops at
	// drop_next = 200, 270.7, 328.4 and 378.4 ms, then 423.1 > 400 ms.
	now := 400 * ms
	for n := uint32(2); n <= 5; n++ {
		steps = append(steps, step{at: now, action: "deq", sojourn: 50 * ms, backlog: 50, want: Drop, dropping: true, count: n, wantNext: next})
		next += spacing(float64(n))
	}
	steps = append(steps, step{at: now, action: "deq", sojourn: 50 * ms, backlog: 50, want: Deliver, dropping: true, count: 5, wantNext: next})
	runSteps(t, c, steps)
	if want := 200*ms + spacing(2) + spacing(3) + spacing(4) + spacing(5); next != want || want <= now {
		t.Errorf("final drop_next %v, want %v > %v", next, want, now)
	}
}

// The re-entry rule (section 5.5): re-entering soon after leaving starts
// count at count - lastcount when that is above 1.
func TestReentry(t *testing.T) {
	c := newDefault(t)
	runSteps(t, c, []step{
		{at: 0, action: "deq", sojourn: 50 * ms, backlog: 10, want: Deliver, wantNext: any},
		{at: 100 * ms, action: "deq", sojourn: 50 * ms, backlog: 10, want: Drop, dropping: true, count: 1, wantNext: 200 * ms}, // lastcount = 1
		{at: 100 * ms, action: "deq", sojourn: 50 * ms, backlog: 9, want: Deliver, dropping: true, count: 1, wantNext: any},
		{at: 200 * ms, action: "deq", sojourn: 50 * ms, backlog: 9, want: Drop, dropping: true, count: 2, wantNext: any},
		{at: 200 * ms, action: "deq", sojourn: 50 * ms, backlog: 8, want: Deliver, dropping: true, count: 2, wantNext: any},
		{at: 271 * ms, action: "deq", sojourn: 50 * ms, backlog: 8, want: Drop, dropping: true, count: 3, wantNext: any},
		{at: 271 * ms, action: "deq", sojourn: 50 * ms, backlog: 7, want: Deliver, dropping: true, count: 3, wantNext: any},
		{at: 329 * ms, action: "deq", sojourn: 50 * ms, backlog: 7, want: Drop, dropping: true, count: 4, wantNext: any},
		{at: 329 * ms, action: "deq", sojourn: 1 * ms, backlog: 6, want: Deliver, dropping: false, count: 4, wantNext: any}, // leave
		{at: 400 * ms, action: "deq", sojourn: 50 * ms, backlog: 6, want: Deliver, dropping: false, count: 4, wantNext: any},
		// Re-enter at 500 ms: delta = 4 - 1 = 3 > 1 and 500 - 378.4 < 1.6 s: count = 3.
		{at: 500 * ms, action: "deq", sojourn: 50 * ms, backlog: 6, want: Drop, dropping: true, count: 3, wantNext: 500*ms + spacing(3)},
		{at: 500 * ms, action: "deq", sojourn: 1 * ms, backlog: 5, want: Deliver, dropping: true, count: 3, wantNext: any}, // still delivered; state stays
		{at: 501 * ms, action: "deq", sojourn: 1 * ms, backlog: 5, want: Deliver, dropping: false, count: 3, wantNext: any},
		{at: 600 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Deliver, dropping: false, count: 3, wantNext: any},
		// Re-enter at 700 ms: delta = 3 - 3 = 0: count = 1.
		{at: 700 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Drop, dropping: true, count: 1, wantNext: 800 * ms},
		{at: 700 * ms, action: "empty", dropping: true, count: 1, wantNext: any}, // entered in this dequeue: stays
	})
}

// Re-entry long after the last episode (16 intervals) starts from count 1.
func TestReentryAfterLongPause(t *testing.T) {
	c := newDefault(t)
	c.count, c.lastCount, c.dropNext = 10, 1, 0
	runSteps(t, c, []step{
		{at: 2 * time.Second, action: "deq", sojourn: 50 * ms, backlog: 5, want: Deliver, count: 10, wantNext: any},
		{at: 2100 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Drop, dropping: true, count: 1, wantNext: 2200 * ms},
	})
}

// An empty queue resets first_above_time and ends the dropping state.
func TestEmpty(t *testing.T) {
	c := newDefault(t)
	runSteps(t, c, []step{
		{at: 0, action: "deq", sojourn: 50 * ms, backlog: 5, want: Deliver, wantNext: any},
		{at: 60 * ms, action: "empty", wantNext: any},
		{at: 100 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Deliver, wantNext: any}, // the clock restarted at 60 ms
		{at: 199 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Deliver, wantNext: any},
		{at: 200 * ms, action: "deq", sojourn: 50 * ms, backlog: 5, want: Drop, dropping: true, count: 1, wantNext: any},
		{at: 200 * ms, action: "deq", sojourn: 50 * ms, backlog: 4, want: Deliver, dropping: true, count: 1, wantNext: any},
		{at: 300 * ms, action: "deq", sojourn: 50 * ms, backlog: 4, want: Drop, dropping: true, count: 2, wantNext: any},
		{at: 300 * ms, action: "empty", dropping: false, count: 2, wantNext: any}, // the drop loop ran out of requests
		{at: 301 * ms, action: "deq", sojourn: 50 * ms, backlog: 4, want: Deliver, count: 2, wantNext: any},
		{at: 302 * ms, action: "empty", count: 2, wantNext: any},
	})
}

// The non-starvation rule (section 4.1): never drop when at most
// MaxPacket requests are left behind.
func TestMaxPacket(t *testing.T) {
	c := newDefault(t)
	for now := time.Duration(0); now < time.Second; now += ms {
		if v := c.Dequeue(now, now-time.Second, 1); v != Deliver {
			t.Fatalf("at %v: %v with a backlog of 1", now, v)
		}
	}
	cfg := DefaultConfig()
	cfg.MaxPacket = 0
	c, _ = New(cfg)
	c.Dequeue(0, -time.Second, 0)
	if v := c.Dequeue(100*ms, -time.Second, 0); v != Deliver {
		t.Errorf("MaxPacket 0: %v, want the last request kept", v)
	}
	cfg.MaxPacket = -1
	c, _ = New(cfg)
	c.Dequeue(0, -time.Second, 0)
	if v := c.Dequeue(100*ms, -time.Second, 0); v != Drop {
		t.Errorf("MaxPacket -1: %v, want drop by age alone", v)
	}
}

func TestConfigValidation(t *testing.T) {
	for _, c := range []Config{
		{Target: 0, Interval: 100 * ms, MaxPacket: 1},
		{Target: 5 * ms, Interval: 4 * ms, MaxPacket: 1},
		{Target: 5 * ms, Interval: 100 * ms, MaxPacket: -2},
	} {
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("New(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("defaults rejected: %v", err)
	}
	if Deliver.String() != "deliver" || Drop.String() != "drop" || Verdict(9).String() != "unknown" {
		t.Error("Verdict.String")
	}
}
