package engine

import "math/rand/v2"

// Stream returns a random generator for the named component. Its sequence
// depends only on the simulation's seed and the name, so components draw
// independently of each other and of the order they were created in. The
// generator is math/rand/v2's PCG (its output is fixed by the Go 1
// compatibility promise). Each call returns a new generator positioned at
// the start of the stream; a component should call it once.
func (s *Sim) Stream(name string) *rand.Rand {
	src := new(rand.PCG)
	s.SeedStream(name, src)
	return rand.New(src)
}

// Seeder is a generator that a stream can be given to: *rand.PCG, or a
// copy of it such as dist.Source, whose Seed(seed1, seed2) starts it as
// rand.NewPCG(seed1, seed2) would.
type Seeder interface {
	Seed(seed1, seed2 uint64)
}

// SeedStream seeds g with the stream of the given name, the one Stream
// would return a Rand over, and keeps it so that Branch reseeds it like
// any stream. It is for a caller that draws from its own generator (a
// dist.Source, whose draws skip the rand.Source interface) rather than
// from a *rand.Rand. A component should call Stream or SeedStream once
// per name.
func (s *Sim) SeedStream(name string, g Seeder) {
	g.Seed(StreamSeed(s.seed, name))
	s.streams = append(s.streams, namedStream{name: name, src: g})
}

// namedStream is a stream handed out, kept so that Branch can reseed it.
type namedStream struct {
	name string
	src  Seeder
}

// Branch reseeds every stream handed out so far, and every stream handed
// out later, as if the simulation's seed were seed from now on: the state
// of the model (its events, queues, counters) is kept, its future draws
// change. It is what restart-by-replay splitting (ressim rare) branches a
// trajectory with: re-run seed s to a time t, Branch there, and the runs
// share their past up to t and part after. Calling it from a handler is
// safe; the generators keep their identity, only their state changes.
func (s *Sim) Branch(seed uint64) {
	s.seed = seed
	for _, st := range s.streams {
		st.src.Seed(StreamSeed(seed, st.name))
	}
}

// StreamSeed derives the two PCG seed words for (seed, name): the name is
// hashed with 64-bit FNV-1a and both words are mixed with SplitMix64, so
// that nearby seeds and similar names give unrelated streams.
func StreamSeed(seed uint64, name string) (uint64, uint64) {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= prime
	}
	return splitmix64(seed ^ splitmix64(h)), splitmix64(h + 0x9e3779b97f4a7c15*splitmix64(seed))
}

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
