package budget_test

import (
	"container/heap"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/retry"
)

// This file reruns Marc Brooker's retry-storm simulation (his "open system"
// simulator, "Metastability and Distributed Systems", 2021): Poisson
// arrivals at 40 req/s spike to 80 req/s for 5 s at t = 20 s; the server takes 1 s + 0.01 s per request in progress
// and never abandons work; the network adds an exponential delay of mean
// 100 ms each way; clients time out after 3 s and make at most 3 attempts.
// At 40 req/s the server settles at about 67 requests in progress (1.67 s
// each). The spike pushes latency past the timeout, every request turns into
// 3 attempts, 120 attempts per second exceed the server's 100/s ceiling, and
// the overload sustains itself after the spike: a metastable failure. The
// retry budget is the push that gets it out.

const (
	stormTimeout = 3 * time.Second
	stormEnd     = 80 * time.Second
)

type stormEvent struct {
	at     time.Duration
	seq    int
	kind   uint8 // arrive, serverStart, serverEnd, response, timeout
	client int
	try    int
}

type stormQueue []stormEvent

func (q stormQueue) Len() int { return len(q) }
func (q stormQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q stormQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *stormQueue) Push(x any)   { *q = append(*q, x.(stormEvent)) }
func (q *stormQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type stormClient struct {
	cur  int // the attempt whose answer is still awaited
	call retry.Call
}

// storm runs one simulation and returns the successes per second, second by
// second. bud may be nil (no retry budget).
func storm(pol *retry.Policy, bud *budget.Bucket, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 1))
	secs := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	net := func() time.Duration { return secs(0.1 * rng.ExpFloat64()) }
	rate := func(t time.Duration) float64 {
		if t >= 20*time.Second && t <= 25*time.Second {
			return 80
		}
		return 40
	}
	const (
		arrive = iota
		serverStart
		serverEnd
		response
		timeout
	)
	var (
		q           stormQueue
		seq         int
		clients     []stormClient
		concurrency int
		goodput     = make([]int, stormEnd/time.Second)
	)
	push := func(e stormEvent) {
		seq++
		e.seq = seq
		heap.Push(&q, e)
	}
	send := func(at time.Duration, c int) {
		try := clients[c].cur
		push(stormEvent{at: at + net(), kind: serverStart, client: c, try: try})
		push(stormEvent{at: at + stormTimeout, kind: timeout, client: c, try: try})
	}
	push(stormEvent{at: 10 * time.Millisecond, kind: arrive})
	for q.Len() > 0 {
		e := heap.Pop(&q).(stormEvent)
		if e.at >= stormEnd {
			break
		}
		switch e.kind {
		case arrive:
			clients = append(clients, stormClient{})
			send(e.at, len(clients)-1)
			push(stormEvent{at: e.at + secs(rng.ExpFloat64()/rate(e.at)), kind: arrive})
		case serverStart:
			concurrency++
			push(stormEvent{at: e.at + secs(1+0.01*float64(concurrency)), kind: serverEnd, client: e.client, try: e.try})
		case serverEnd:
			concurrency--
			push(stormEvent{at: e.at + net(), kind: response, client: e.client, try: e.try})
		case response:
			c := &clients[e.client]
			if e.try != c.cur {
				continue // the client gave up on this attempt: wasted work
			}
			c.cur = -1 // done
			goodput[e.at/time.Second]++
			if bud != nil {
				bud.RecordSuccess(e.at)
			}
		case timeout:
			c := &clients[e.client]
			if e.try != c.cur {
				continue
			}
			d := pol.Decide(e.at, c.call, policies.Timeout, 0, rng.Float64())
			if bud != nil && d.Retry && !bud.TryRetry(e.at) {
				d = d.Deny(retry.ReasonBudget)
			}
			if !d.Retry {
				c.cur = -1 // failed
				continue
			}
			c.cur++
			c.call = d.Next
			send(d.At, e.client)
		}
	}
	return goodput
}

func mean(v []int) float64 {
	s := 0
	for _, x := range v {
		s += x
	}
	return float64(s) / float64(len(v))
}

func TestBudgetEndsRetryStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	newRetry := func(b retry.Backoff, base, cap time.Duration) *retry.Policy {
		cfg := retry.DefaultConfig()
		cfg.Backoff, cfg.Base, cfg.Cap, cfg.AttemptTimeout = b, base, cap, stormTimeout
		p, err := retry.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		pol     *retry.Policy
		budget  bool
		recover bool // every run back near 40/s over the last 10 s
	}{
		// Three immediate attempts: the overload outlives the spike.
		{"no backoff", newRetry(retry.BackoffNone, 0, 0), false, false},
		// Brooker's client: first retry after uniform(0, 20 s), second
		// after uniform(0, 40 s).
		{"backoff 20s/40s full jitter", newRetry(retry.BackoffFullJitter, 20*time.Second, 40*time.Second), false, true},
		// The same three immediate attempts, under the default budget.
		{"no backoff + budget", newRetry(retry.BackoffNone, 0, 0), true, true},
	}
	const runs = 5
	for _, tt := range tests {
		locked := 0
		for seed := range uint64(runs) {
			var bud *budget.Bucket
			if tt.budget {
				var err error
				if bud, err = budget.New(budget.DefaultConfig()); err != nil {
					t.Fatal(err)
				}
			}
			g := storm(tt.pol, bud, seed)
			before, after := mean(g[10:20]), mean(g[70:80])
			t.Logf("%-28s seed %d: goodput %4.1f/s before the spike, %4.1f/s 45 s after it", tt.name, seed, before, after)
			if before < 35 || before > 45 {
				t.Errorf("%s seed %d: goodput before the spike %.1f/s, want about 40", tt.name, seed, before)
			}
			if after < 10 {
				locked++
			}
			if tt.recover && after < 35 {
				t.Errorf("%s seed %d: goodput %.1f/s 45 s after the spike, want recovered (about 40)", tt.name, seed, after)
			}
		}
		if !tt.recover && locked*2 <= runs {
			t.Errorf("%s: only %d of %d runs stayed locked in; want most", tt.name, locked, runs)
		}
	}
}
