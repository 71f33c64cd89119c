package wall

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
)

// seededRand returns r, or, when r is nil, a generator seeded from the
// operating system's randomness: production jitter and hedge draws must
// differ between processes (a fleet seeded alike retries in lockstep);
// tests pass their own r. what names the draws in an error.
func seededRand(r *rand.Rand, what string) (*rand.Rand, error) {
	if r != nil {
		return r, nil
	}
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("wall: seeding the %s: %w", what, err)
	}
	return rand.New(rand.NewChaCha8(seed)), nil
}
