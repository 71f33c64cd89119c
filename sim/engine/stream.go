package engine

import "math/rand/v2"

// Stream returns a random generator for the named component. Its sequence
// depends only on the simulation's seed and the name, so components draw
// independently of each other and of the order they were created in. The
// generator is math/rand/v2's PCG (its output is fixed by the Go 1
// compatibility promise). Each call returns a new generator positioned at
// the start of the stream; a component should call it once.
func (s *Sim) Stream(name string) *rand.Rand { return rand.New(s.StreamPCG(name)) }

// StreamPCG is Stream's generator itself: the same stream for the same
// name, as a concrete *rand.PCG, for a caller that draws through it
// directly rather than through a rand.Rand's interface call (dist.Source
// wraps it so). Branch reseeds it like any stream; a component should call
// Stream or StreamPCG once per name.
func (s *Sim) StreamPCG(name string) *rand.PCG {
	src := rand.NewPCG(StreamSeed(s.seed, name))
	s.streams = append(s.streams, namedStream{name: name, src: src})
	return src
}

// namedStream is a stream handed out, kept so that Branch can reseed it.
type namedStream struct {
	name string
	src  *rand.PCG
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
