package dist

import (
	"math/rand/v2"
	"time"
)

// Source is a random stream with a fast path for the draws a model makes
// per event: it is a *rand.Rand (every method of which it has) over a
// concrete *rand.PCG, and its Uint64, Float64 and ExpFloat64 call that PCG
// directly instead of through the rand.Source interface. The values are
// bit for bit those of the *rand.Rand's methods, and since a rand.Rand
// keeps no state of its own, calls through Source's fast methods and
// through the embedded Rand (IntN, NormFloat64, Dist.Draw(s.Rand), ...)
// can be mixed on one stream: they consume it exactly as the same calls
// on the Rand alone would.
//
// Like a *rand.Rand, a Source is not safe for concurrent use.
type Source struct {
	*rand.Rand           // the stream as a rand.Rand, over pcg
	pcg        *rand.PCG // the generator behind Rand
}

// NewSource returns the Source drawing from p: its Rand is rand.New(p).
// The Source does not copy p; reseeding p reseeds the Source.
func NewSource(p *rand.PCG) *Source {
	return &Source{Rand: rand.New(p), pcg: p}
}

// Uint64 returns a uniformly distributed 64-bit value, as
// (*rand.Rand).Uint64.
func (s *Source) Uint64() uint64 { return s.pcg.Uint64() }

// Float64 returns a uniform float64 in [0, 1), as (*rand.Rand).Float64.
func (s *Source) Float64() float64 { return pcgFloat64(s.pcg) }

// ExpFloat64 returns an exponential variate of rate 1 (mean 1, unitless),
// as (*rand.Rand).ExpFloat64: multiply by a mean to scale it.
func (s *Source) ExpFloat64() float64 { return expFloat64(s.pcg) }

// DrawFrom is Draw on src: the same durations, from the same draws of the
// stream, with the exponential families' draws made on src's PCG
// directly.
func (d *Dist) DrawFrom(src *Source) time.Duration {
	var x float64
	switch d.kind {
	case Constant:
		return time.Duration(d.mean)
	case Exponential:
		x = expFloat64(src.pcg) * d.mean
	case Erlang:
		m := d.mean / float64(d.k)
		for i := 0; i < d.k; i++ {
			x += expFloat64(src.pcg) * m
		}
	case Hyperexponential:
		if pcgFloat64(src.pcg) < d.p {
			x = expFloat64(src.pcg) * d.m1
		} else {
			x = expFloat64(src.pcg) * d.m2
		}
	default:
		return d.Draw(src.Rand)
	}
	return toDuration(x)
}

// pcgFloat64 is (*rand.Rand).Float64 for rand.New(p): the low 53 bits of
// a draw as a fraction in [0, 1). The mask is rand's <<11>>11 and the
// product its division by 1<<53 (scaling by a power of two is exact
// either way), written so that the compiler inlines the function.
func pcgFloat64(p *rand.PCG) float64 {
	return float64(p.Uint64()&(1<<53-1)) * (1.0 / (1 << 53))
}
