package dist

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/engine"
)

// TestExpFloat64MatchesRand steps Source.ExpFloat64 and Float64 against
// (*rand.Rand).ExpFloat64 and Float64 on twin streams, 1e6 draws per seed
// (in short mode 1e5), comparing bits: the ziggurat's rare paths (the
// tail, i == 0, and the wedges' rejection tests) are all reached.
func TestExpFloat64MatchesRand(t *testing.T) {
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {42, 7}, {math.MaxUint64, 3}, {0x9e3779b97f4a7c15, 1}} {
		src := NewSource(seed[0], seed[1])
		ref := rand.New(rand.NewPCG(seed[0], seed[1]))
		for i := 0; i < n; i++ {
			got, want := src.ExpFloat64(), ref.ExpFloat64()
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("seed %v draw %d: ExpFloat64 %v, rand %v", seed, i, got, want)
			}
			if i%7 == 0 {
				if got, want := src.Float64(), ref.Float64(); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("seed %v draw %d: Float64 %v, rand %v", seed, i, got, want)
				}
			}
		}
	}
}

// TestSourceMixedMatchesRand draws a long sequence mixing Source's direct
// methods, the embedded Rand's methods and DrawFrom of every family, and
// the same calls on a plain *rand.Rand (with Draw) over a twin stream: the
// two must agree bit for bit at every step, so the fast path and the Rand
// share the stream without either buffering or skipping draws.
func TestSourceMixedMatchesRand(t *testing.T) {
	ms := time.Millisecond
	dists := []Dist{
		Must(Params{Kind: Constant, Mean: 10 * ms}),
		Must(Params{Kind: Exponential, Mean: 10 * ms}),
		Must(Params{Kind: Erlang, Mean: 10 * ms, K: 3}),
		Must(Params{Kind: Hyperexponential, Mean: 10 * ms, SCV: 4}),
		Must(Params{Kind: Lognormal, Mean: 10 * ms, Sigma: 0.5}),
		Must(Params{Kind: Uniform, Min: 5 * ms, Max: 15 * ms}),
		Must(Params{Kind: Normal, Mean: 10 * ms, SD: 10 * ms}),
	}
	pick := rand.New(rand.NewPCG(5, 6))
	src := NewSource(11, 12)
	ref := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 300000; i++ {
		var got, want uint64
		switch op := pick.IntN(7 + len(dists)); op {
		case 0:
			got, want = src.Uint64(), ref.Uint64()
		case 1:
			got, want = math.Float64bits(src.Float64()), math.Float64bits(ref.Float64())
		case 2:
			got, want = math.Float64bits(src.ExpFloat64()), math.Float64bits(ref.ExpFloat64())
		case 3:
			got, want = uint64(src.IntN(1000)), uint64(ref.IntN(1000))
		case 4:
			got, want = math.Float64bits(src.NormFloat64()), math.Float64bits(ref.NormFloat64())
		case 5:
			got, want = uint64(src.Uint32()), uint64(ref.Uint32())
		case 6:
			got, want = uint64(src.Rand.Uint64()), ref.Uint64()
		default:
			d := &dists[op-7]
			got, want = uint64(d.DrawFrom(src)), uint64(d.Draw(ref))
		}
		if got != want {
			t.Fatalf("step %d: %#x, rand %#x", i, got, want)
		}
	}
}

// TestPCGMatchesRand steps the copy of rand.PCG against rand.PCG, with
// reseeding (Source.Seed, as Branch does) along the way.
func TestPCGMatchesRand(t *testing.T) {
	src := NewSource(0, 0)
	ref := rand.NewPCG(0, 0)
	seeds := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000000; i++ {
		if i%100000 == 0 {
			a, b := seeds.Uint64(), seeds.Uint64()
			src.Seed(a, b)
			ref.Seed(a, b)
		}
		if got, want := src.Uint64(), ref.Uint64(); got != want {
			t.Fatalf("draw %d: %#x, rand.PCG %#x", i, got, want)
		}
	}
}

// TestSeedStreamMatchesStream checks that a Source given a stream by
// engine.Sim.SeedStream draws what Stream's Rand draws, before and after
// a Branch.
func TestSeedStreamMatchesStream(t *testing.T) {
	s1, s2 := engine.New(9), engine.New(9)
	src := NewSource(0, 0)
	s1.SeedStream("site/a", src)
	ref := s2.Stream("site/a")
	for round := 0; round < 2; round++ {
		for i := 0; i < 1000; i++ {
			if got, want := src.ExpFloat64(), ref.ExpFloat64(); got != want {
				t.Fatalf("round %d draw %d: %v, Stream %v", round, i, got, want)
			}
		}
		s1.Branch(77)
		s2.Branch(77)
	}
}

// TestExponentialWrittenOut checks the split a hot caller writes out
// (topology's Model.advance): Exponential reports the mean of an
// exponential distribution and refuses every other family, and
// Duration(src.ExpFloat64()*mean) draws what DrawFrom draws on a twin
// stream, duration for duration.
func TestExponentialWrittenOut(t *testing.T) {
	ms := time.Millisecond
	for _, p := range []Params{
		{Kind: Constant, Mean: 10 * ms},
		{Kind: Exponential, Mean: 10 * ms},
		{Kind: Exponential, Mean: 1},
		{Kind: Erlang, Mean: 10 * ms, K: 3},
		{Kind: Hyperexponential, Mean: 10 * ms, SCV: 4},
		{Kind: Uniform, Min: 5 * ms, Max: 15 * ms},
	} {
		d := Must(p)
		mean, ok := d.Exponential()
		if ok != (p.Kind == Exponential) || ok && mean != float64(p.Mean) || !ok && mean != 0 {
			t.Fatalf("%v: Exponential() = %v, %v", p, mean, ok)
		}
		if !ok {
			continue
		}
		a, b := NewSource(3, 4), NewSource(3, 4)
		for i := 0; i < 100000; i++ {
			if got, want := Duration(a.ExpFloat64()*mean), d.DrawFrom(b); got != want {
				t.Fatalf("%v, draw %d: written out %v, DrawFrom %v", p, i, got, want)
			}
		}
	}
}
