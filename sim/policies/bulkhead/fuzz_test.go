package bulkhead

import (
	"testing"
	"time"
)

// FuzzBulkhead drives a Semaphore or a Pool with arbitrary operations and
// checks, against a model, that slots in use never exceed the quota, that
// no waiter is granted twice or after its WaitUntil, that no slot is lost
// (a Release with a live waiter always hands the slot over), and that
// Expire and Cancel succeed exactly once per ungranted ticket.
func FuzzBulkhead(f *testing.F) {
	f.Add([]byte{0, 2, 3, 0, 0, 0, 0, 1, 5, 1, 2, 1, 3, 0, 4, 1, 1, 1})
	f.Add([]byte{1, 1, 2, 0, 0, 0, 0, 0, 2, 4, 2, 1, 1, 1, 3, 0, 5, 1})
	f.Add([]byte{0, 0, 0, 0, 9, 0, 9, 0, 9, 4, 200, 1, 1, 2, 0, 3, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		limit := 1 + int(data[1]%4)
		var b bulkhead
		queueCap := -1
		if data[0]&1 == 0 {
			s, err := NewSemaphore(SemaphoreConfig{MaxConcurrentCalls: limit, MaxWaitDuration: time.Duration(data[2]%4) * 10 * ms})
			if err != nil {
				t.Fatal(err)
			}
			b = s
		} else {
			queueCap = int(data[2] % 5)
			p, err := NewPool(PoolConfig{MaxThreadPoolSize: limit, QueueCapacity: queueCap})
			if err != nil {
				t.Fatal(err)
			}
			b = p
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
		type status uint8
		const (
			queued status = iota + 1
			granted
			gone
		)
		type ticket struct {
			st    status
			until time.Duration
		}
		var (
			now     time.Duration
			holders int
			tickets = map[Ticket]*ticket{}
			order   []Ticket
		)
		pick := func() Ticket {
			if len(order) == 0 {
				return Ticket(next())
			}
			return order[int(next())%len(order)]
		}
		for len(data) > 0 {
			switch next() % 5 {
			case 0:
				now += time.Duration(next()) * ms
			case 1:
				deadline := NoDeadline
				if d := next(); d%4 != 0 {
					deadline = now + time.Duration(d)*ms - 20*ms
				}
				a := b.Acquire(now, deadline)
				switch a.Decision {
				case Granted:
					holders++
				case Queued:
					if tickets[a.Ticket] != nil || a.Ticket == 0 {
						t.Fatalf("ticket %d issued twice", a.Ticket)
					}
					if a.WaitUntil <= now || a.WaitUntil > deadline {
						t.Fatalf("queued at %v until %v, deadline %v", now, a.WaitUntil, deadline)
					}
					tickets[a.Ticket] = &ticket{queued, a.WaitUntil}
					order = append(order, a.Ticket)
				case DeadlineExceeded:
					if deadline > now {
						t.Fatalf("deadline %v refused at %v", deadline, now)
					}
				}
			case 2:
				before := holders
				g, ok := b.Release(now)
				if before == 0 {
					if ok {
						t.Fatal("Release without a slot in use granted one")
					}
					break
				}
				if ok {
					tk := tickets[g.Ticket]
					if tk == nil || tk.st != queued {
						t.Fatalf("Release granted ticket %d in state %+v", g.Ticket, tk)
					}
					if now >= tk.until {
						t.Fatalf("ticket %d granted at %v, its wait ended at %v", g.Ticket, now, tk.until)
					}
					tk.st = granted
				} else {
					holders--
					for _, id := range order {
						if tk := tickets[id]; tk.st == queued && now < tk.until {
							t.Fatalf("slot freed at %v while ticket %d waits until %v", now, id, tk.until)
						}
					}
				}
			case 3:
				id := pick()
				_, ok := b.Expire(now, id)
				tk := tickets[id]
				if ok != (tk != nil && tk.st == queued) {
					t.Fatalf("Expire(%d) = %v, ticket %+v", id, ok, tk)
				}
				if ok {
					tk.st = gone
				}
			case 4:
				id := pick()
				ok := b.Cancel(id)
				tk := tickets[id]
				if ok != (tk != nil && tk.st == queued) {
					t.Fatalf("Cancel(%d) = %v, ticket %+v", id, ok, tk)
				}
				if ok {
					tk.st = gone
				}
			}
			if b.InUse() != holders || holders > limit || holders < 0 {
				t.Fatalf("in use %d, model %d, limit %d", b.InUse(), holders, limit)
			}
			nq := 0
			for _, id := range order {
				if tickets[id].st == queued {
					nq++
				}
			}
			if w := b.Waiting(); w > nq || (queueCap >= 0 && w > queueCap) || (w > 0 && holders < limit) {
				t.Fatalf("waiting %d, model queued %d, queue capacity %d, in use %d/%d", w, nq, queueCap, holders, limit)
			}
		}
	})
}
