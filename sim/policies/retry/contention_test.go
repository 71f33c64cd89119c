package retry

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// This file reproduces the optimistic-concurrency contention simulation of
// Marc Brooker's "Exponential Backoff and Jitter" (AWS Architecture Blog,
// 2015), with the backoff delays computed by Policy.Delay. N clients each
// read a single row's version and write it back conditionally; a write with
// a stale version fails, and the client backs off and starts over. Network
// delay per message is |Normal(10 ms, 2 ms)|; Brooker's backoff has base
// 5 ms, cap 2 s and numbers retries from 1, so its first delay is
// min(cap, 5 ms * 2^1): Policy numbers them from 0, hence Base 10 ms here
// (except decorrelated jitter, whose formula does not use the retry number
// and keeps Base 5 ms).

type occEvent struct {
	at     time.Duration
	seq    int
	client int
	kind   uint8 // 0 read arrives at server, 1 read reply at client, 2 write at server, 3 write reply
	val    int   // version read, or write success (1/0)
}

type occQueue []occEvent

func (q occQueue) Len() int { return len(q) }
func (q occQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q occQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *occQueue) Push(x any)   { *q = append(*q, x.(occEvent)) }
func (q *occQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// occRun simulates one run of n clients and returns the number of writes
// (Brooker's "calls") and the time until the last client succeeded.
func occRun(p *Policy, n int, rng *rand.Rand) (writes int, done time.Duration) {
	net := func() time.Duration {
		return time.Duration(math.Abs(10+2*rng.NormFloat64()) * float64(time.Millisecond))
	}
	var (
		q       occQueue
		seq     int
		version int
		calls   = make([]Call, n)
	)
	push := func(e occEvent) {
		seq++
		e.seq = seq
		heap.Push(&q, e)
	}
	for c := range n {
		push(occEvent{at: net(), client: c, kind: 0})
	}
	for q.Len() > 0 {
		e := heap.Pop(&q).(occEvent)
		switch e.kind {
		case 0: // server reads the version
			push(occEvent{at: e.at + net(), client: e.client, kind: 1, val: version})
		case 1: // client writes what it read
			push(occEvent{at: e.at + net(), client: e.client, kind: 2, val: e.val})
		case 2: // server: conditional write
			writes++
			ok := 0
			if e.val == version {
				version++
				ok = 1
			}
			push(occEvent{at: e.at + net(), client: e.client, kind: 3, val: ok})
		case 3:
			if e.val == 1 {
				done = e.at
				continue
			}
			c := calls[e.client]
			d := p.Delay(c, rng.Float64())
			calls[e.client] = Call{retries: c.retries + 1, prev: d}
			push(occEvent{at: e.at + net() + d, client: e.client, kind: 0})
		}
	}
	return writes, done
}

// TestBrookerContention checks the backoff variants against the figures of
// Brooker's simulation for 100 contending clients (Marc Brooker,
// "Exponential Backoff and Jitter", AWS Architecture Blog, 2015: mean
// calls about 2400 without backoff, 1850 exponential, 810 equal jitter,
// 800 full jitter, 1000 decorrelated jitter). This seed lands within 1.5 %
// of every figure; the tolerance is 10 %, several times the spread of a
// 20-run mean. The test also checks the orderings the post's argument rests
// on.
func TestBrookerContention(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const clients, runs = 100, 20
	tests := []struct {
		b    Backoff
		base time.Duration
		want float64
	}{
		{BackoffNone, 10 * time.Millisecond, 2400},
		{BackoffExponential, 10 * time.Millisecond, 1850},
		{BackoffEqualJitter, 10 * time.Millisecond, 810},
		{BackoffFullJitter, 10 * time.Millisecond, 800},
		{BackoffDecorrelatedJitter, 5 * time.Millisecond, 1000},
	}
	calls := map[Backoff]float64{}
	finish := map[Backoff]time.Duration{}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Backoff, cfg.Base, cfg.Cap = tt.b, tt.base, 2*time.Second
		if tt.b == BackoffNone {
			cfg.Base = 0
		}
		p := mustNew(t, cfg)
		rng := rand.New(rand.NewPCG(2015, uint64(tt.b)))
		var sumW int
		var sumT time.Duration
		for range runs {
			w, d := occRun(p, clients, rng)
			sumW += w
			sumT += d
		}
		got := float64(sumW) / runs
		calls[tt.b], finish[tt.b] = got, sumT/runs
		t.Logf("%-20v mean calls %6.0f (Brooker %4.0f), mean completion %v", tt.b, got, tt.want, (sumT / runs).Round(time.Millisecond))
		if math.Abs(got-tt.want) > 0.1*tt.want {
			t.Errorf("%v: mean calls %.0f, want %.0f +- 10%%", tt.b, got, tt.want)
		}
	}
	if !(calls[BackoffFullJitter] < calls[BackoffDecorrelatedJitter] &&
		calls[BackoffDecorrelatedJitter] < calls[BackoffExponential] &&
		calls[BackoffExponential] < calls[BackoffNone]) {
		t.Errorf("work ordering full < decorrelated < exponential < none broken: %v", calls)
	}
	if finish[BackoffFullJitter] >= finish[BackoffExponential] {
		t.Errorf("full jitter should finish sooner than plain exponential: %v vs %v",
			finish[BackoffFullJitter], finish[BackoffExponential])
	}
}
