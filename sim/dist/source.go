package dist

import (
	"math/rand/v2"
	"time"
)

// Source is a random stream with a fast path for the draws a model makes
// per event: it is a *rand.Rand (every method of which it has) over its own
// copy of rand.PCG, and its Uint64, Float64 and ExpFloat64 step that
// generator directly instead of through the rand.Source interface, small
// enough (Uint64, Float64) to be inlined into the caller. The values are
// bit for bit those of a *rand.Rand over rand.NewPCG with the same seeds,
// and since a rand.Rand keeps no state of its own, calls through Source's
// fast methods and through the embedded Rand (IntN, NormFloat64,
// Dist.Draw(s.Rand), ...) can be mixed on one stream: they consume it
// exactly as the same calls on the Rand alone would.
//
// Like a *rand.Rand, a Source is not safe for concurrent use.
type Source struct {
	pcg        pcg // the generator; first, so that &s.pcg is s
	*rand.Rand     // the stream as a rand.Rand, over pcg
}

// NewSource returns the Source seeded as rand.NewPCG(seed1, seed2): it
// draws what rand.New(rand.NewPCG(seed1, seed2)) would.
func NewSource(seed1, seed2 uint64) *Source {
	s := &Source{pcg: pcg{hi: seed1, lo: seed2}}
	s.Rand = rand.New(&s.pcg)
	return s
}

// Seed restarts the stream as NewSource(seed1, seed2) would start it, as
// (*rand.PCG).Seed does (engine.Sim.Branch reseeds a stream so).
func (s *Source) Seed(seed1, seed2 uint64) { s.pcg = pcg{hi: seed1, lo: seed2} }

// Uint64 returns a uniformly distributed 64-bit value, as
// (*rand.Rand).Uint64.
func (s *Source) Uint64() uint64 { return s.pcg.Uint64() }

// Float64 returns a uniform float64 in [0, 1), as (*rand.Rand).Float64.
func (s *Source) Float64() float64 { return s.pcg.float64() }

// ExpFloat64 is in exp.go.

// Exponential returns the mean of an exponential distribution, in
// nanoseconds, and true; for any other family, 0 and false. With
// Duration it lets a hot caller write DrawFrom's exponential case in its
// own body, d = Duration(src.ExpFloat64() * mean), where profile-guided
// optimisation can inline the draw (it inlines a hot call only where the
// call is written, and inlined from DrawFrom the draw stayed a call).
func (d *Dist) Exponential() (mean float64, ok bool) {
	if d.kind != Exponential {
		return 0, false
	}
	return d.mean, true
}

// DrawFrom is Draw on src: the same durations, from the same draws of the
// stream, with the exponential families' draws made on src's PCG
// directly.
func (d *Dist) DrawFrom(src *Source) time.Duration {
	if d.kind == Exponential { // the usual service time, tested first
		return Duration(src.ExpFloat64() * d.mean)
	}
	var x float64
	switch d.kind {
	case Constant:
		return time.Duration(d.mean)
	case Erlang:
		m := d.mean / float64(d.k)
		for i := 0; i < d.k; i++ {
			x += src.ExpFloat64() * m
		}
	case Hyperexponential:
		if src.pcg.float64() < d.p {
			x = src.ExpFloat64() * d.m1
		} else {
			x = src.ExpFloat64() * d.m2
		}
	default:
		return d.Draw(src.Rand)
	}
	return Duration(x)
}
