package ctmc

import (
	"context"
	"math"
	"testing"
)

// metaforChain is our reading of Metafor's single-server CTMC
// (mpi-sws-rse/metafor, metafor/ctmc_model/single_server/ctmc.py,
// generator_mat_exact with retry_when_full = false), written from its
// description, not its code: states (n, m), n = 0..N-1 in the queue, m =
// 0..M-1 in the orbit; tail(n) is a Chebyshev bound on the probability
// that a request behind n others waits past the timeout; alpha scales
// the orbit's arrivals (0.25 by default, fitted to their simulator).
func metaforChain(lambda, mu, timeout float64, retries, threads, N, M int, alpha float64) *sparse {
	tail := make([]float64, N)
	for n := 1; n < N; n++ {
		rate := float64(min(n, threads)) * mu
		ave, sd := float64(n)/rate, math.Sqrt(float64(n))/rate
		tail[n] = 1
		if timeout-ave > sd {
			tail[n] = (sd / (timeout - ave)) * (sd / (timeout - ave))
		}
	}
	R := float64(retries)
	retry, drop := R/((R+1)*timeout), 1/((R+1)*timeout)
	s := &sparse{n: N * M, start: make([]int32, N*M+1), backlog: make([]int32, N*M)}
	idx := func(n, m int) int32 { return int32(m*N + n) }
	for m := 0; m < M; m++ {
		for n := 0; n < N; n++ {
			i := idx(n, m)
			s.backlog[i] = int32(n)
			fm := float64(m)
			switch {
			case n == 0:
				s.add(idx(1, m), lambda)
				if m > 0 {
					s.add(idx(0, m-1), fm*drop)
					s.add(idx(1, m-1), fm*retry)
				}
			case n == N-1:
				s.add(idx(n-1, m), float64(min(N, threads))*mu)
				if m > 0 {
					s.add(idx(n, m-1), fm*(drop+retry))
				}
			default:
				if m < M-1 {
					s.add(idx(n+1, m+1), alpha*lambda*tail[n])
				}
				s.add(idx(n+1, m), lambda+fm*retry*tail[n])
				if m > 0 {
					s.add(idx(n+1, m-1), fm*retry*(1-tail[n]))
					s.add(idx(n, m-1), fm*drop)
				}
				s.add(idx(n-1, m), float64(min(n, threads))*mu)
			}
			s.start[i+1] = int32(len(s.to))
		}
	}
	s.finish()
	return s
}

// TestMetaforReadme solves our reading of Metafor's CTMC for its README
// system (mu = 10, lambda = 9.5, timeout 3 s, 4 retries, qsize 100, orbit
// 20, one thread; docs/edge/metafor-readme.toml) by power iteration, and
// checks what docs/edge.md says of it: the chain, like ressim's run of
// the file, sits in its locked-in mode (a mean queue of 96.9 of at most
// 99, the queue full a third of the time, 10.6 requests in the orbit).
func TestMetaforReadme(t *testing.T) {
	s := metaforChain(9.5, 10, 3, 4, 1, 100, 20, 0.25)
	x, move, err := s.stationary(context.Background(), 1e-13, MaxStationaryIterations)
	if err != nil {
		t.Fatal(err)
	}
	var sum, mean, full, orbit float64
	for i, v := range x {
		sum += v
		mean += float64(s.backlog[i]) * v
		orbit += float64(i/100) * v
		if s.backlog[i] == 99 {
			full += v
		}
	}
	t.Logf("Metafor's CTMC, README system: mean queue %.10g, mean orbit %.10g, P(queue full) %.10g (move %.2g)", mean, orbit, full, move)
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("the distribution sums to %v", sum)
	}
	if !(mean > 95) || !(full > 0.25 && full < 0.4) || !(orbit > 9 && orbit < 12) {
		t.Errorf("mean queue %.2f, P(full) %.3g, mean orbit %.2f: docs/edge.md says 96.9, 0.32 and 10.6", mean, full, orbit)
	}
	// Metafor's own code (commit 5355c17, its README program built with
	// Program.build and solved with get_stationary_distribution, under
	// Debian's python3-numpy and python3-scipy) gives these; our reading
	// of its generator must agree to the power iteration's accuracy
	// (a total-variation move of 1e-13 a step, on a chain whose slowest
	// mode is far from 1: 1e-6 relative is loose).
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"mean queue", mean, 96.86310186},
		{"P(queue full)", full, 0.3186708222821036},
		{"mean orbit", orbit, 10.582118435036234},
	} {
		if math.Abs(c.got-c.want) > 1e-6*c.want {
			t.Errorf("%s %.10g, Metafor's own code %.10g", c.what, c.got, c.want)
		}
	}
}
