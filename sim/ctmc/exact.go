package ctmc

import (
	"fmt"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/retry"
	"github.com/ressim/ressim/sim/topology"
)

// ExactParams is the chain that is a file's model exactly, not an
// approximation of it: one service with c FIFO workers and room for
// c+K requests, one Poisson client, exponential work, an exponential
// timeout, and retries that go at once (backoff "none"). Its state is
// the sequence of the requests at the service, head first, each labelled
// with what its timeout would do: 0, nothing (an orphan, whose caller
// already timed out and which stays and is served for nobody, as
// ressim's services do; or a live attempt on its last try, whose timeout
// only makes it an orphan), or a = 1..A-1, a live attempt a whose timeout
// sends attempt a+1 to the tail. Merging orphans with last tries is exact
// (lumpable): they differ in nothing the future of the sequence depends
// on. The sequence is needed because which request is served next (the
// head) and which can still retry depend on the order: counts alone are
// not Markov. There is no orbit: a retry joins the queue's tail at the
// instant of its timeout.
type ExactParams struct {
	// Lambda is the client's Poisson rate; Mu one worker's service rate;
	// Theta the timeout rate (1 / the timeout's mean), 0 without one.
	Lambda, Mu, Theta float64
	// Workers is c; Capacity c + K.
	Workers, Capacity int
	// Attempts is A, the attempts of a request (1: no retries).
	Attempts int
	// RetryTimeout: a timed-out attempt with attempts left is retried.
	RetryTimeout bool
}

// MaxExactStates bounds the sequence chain (the sum over n <= c+K of
// A^n states; c+K+1 without retries).
const MaxExactStates = 2_000_000

// ExactFromModel reads the exact chain's parameters, or says why the
// model is not in its class (ErrClass). The class is FromModel's with an
// exponential timeout (or none) and immediate retries.
func ExactFromModel(cfg topology.Config) (ExactParams, error) {
	no := func(format string, a ...any) (ExactParams, error) {
		return ExactParams{}, fmt.Errorf("%w: %s", ErrClass, fmt.Sprintf(format, a...))
	}
	s, c, err := queueClass(cfg)
	if err != nil {
		return ExactParams{}, err
	}
	if c.Call.Timeout > 0 && !c.Call.TimeoutExponential {
		return no("client %q has a fixed timeout; the exact chain needs timeout = { dist = \"exponential\", mean = ... }", c.Name)
	}
	p := ExactParams{Lambda: c.Rate, Mu: 1 / s.Steps[0].Work.Mean().Seconds(), Workers: s.Workers, Capacity: s.Workers + s.QueueCapacity, Attempts: 1}
	if c.Call.Timeout > 0 {
		p.Theta = 1 / c.Call.Timeout.Seconds()
	}
	if r := c.Call.Retry; r.MaxAttempts > 1 && r.Idempotent {
		if r.Backoff != retry.BackoffNone {
			return no("client %q retries after a %s backoff; the exact chain has immediate retries (backoff \"none\"), the orbit chain approximates a backoff", c.Name, r.Backoff)
		}
		p.Attempts, p.RetryTimeout = r.MaxAttempts, r.RetryOn.Has(policies.Timeout)
	}
	return p, p.validate()
}

func (p ExactParams) validate() error {
	if err := validateQueue(p.Lambda, p.Mu, p.Theta, p.Workers, p.Capacity); err != nil {
		return err
	}
	if p.Attempts < 1 || p.Attempts > retry.MaxMaxAttempts {
		return fmt.Errorf("%w: attempts %d", ErrClass, p.Attempts)
	}
	if n := p.states(); n > MaxExactStates {
		return fmt.Errorf("%w: the exact chain of %d places and %d attempts has %.3g states, over the limit of %d; lower queue_capacity or attempts", ErrTooLarge, p.Capacity, p.Attempts, n, MaxExactStates)
	}
	return nil
}

// base is the labels per place: 0, and 1..A-1 for a live attempt that
// can still retry.
func (p ExactParams) base() int {
	if p.Theta == 0 || !p.RetryTimeout {
		return 1
	}
	return p.Attempts
}

// states is the chain's size, as a float to see overflow.
func (p ExactParams) states() float64 {
	b := float64(p.base())
	var n, pow float64 = 0, 1
	for k := 0; k <= p.Capacity; k++ {
		n += pow
		pow *= b
		if n > 2*MaxExactStates {
			return n
		}
	}
	return n
}

// build is the sequence chain as a sparse generator. A state of length
// n is offset[n] + sum_i label_i · B^i, place 0 the head.
func (p ExactParams) build() *sparse {
	B := p.base()
	N := p.Capacity
	offset := make([]int, N+2)
	pow := make([]int, N+1)
	pow[0] = 1
	for k := 1; k <= N; k++ {
		pow[k] = pow[k-1] * B
	}
	for k := 0; k <= N; k++ {
		offset[k+1] = offset[k] + pow[k]
	}
	total := offset[N+1]
	s := &sparse{n: total, start: make([]int32, total+1), backlog: make([]int32, total)}
	seq := make([]int, N+1)
	enc := func(q []int) int32 {
		v := 0
		for i := len(q) - 1; i >= 0; i-- {
			v = v*B + q[i]
		}
		return int32(offset[len(q)] + v)
	}
	buf := make([]int, N+1)
	for n := 0; n <= N; n++ {
		for v := 0; v < pow[n]; v++ {
			x := v
			for i := 0; i < n; i++ {
				seq[i], x = x%B, x/B
			}
			q := seq[:n]
			from := int32(offset[n] + v)
			s.backlog[from] = int32(n)
			// A new request joins the tail; at a full queue it is
			// rejected, and an immediate retry of a rejection is
			// rejected again: the request is lost.
			first := min(1, B-1)
			if n < N {
				t := append(append(buf[:0], q...), first)
				s.add(enc(t), p.Lambda)
			}
			// The c oldest are in service.
			for i := 0; i < min(n, p.Workers); i++ {
				t := append(append(buf[:0], q[:i]...), q[i+1:]...)
				s.add(enc(t), p.Mu)
			}
			// A live attempt with retries left times out: it stays, an
			// orphan, and its retry joins the tail if there is room.
			for i, a := range q {
				if a == 0 {
					continue
				}
				t := append(buf[:0], q...)
				t[i] = 0
				if n < N {
					next := a + 1
					if next == p.Attempts {
						next = 0
					}
					t = append(t, next)
				}
				s.add(enc(t), p.Theta)
			}
			s.start[from+1] = int32(len(s.to))
		}
	}
	s.finish()
	return s
}

// States is the exact chain's size.
func (p ExactParams) States() int { return int(p.states()) }
