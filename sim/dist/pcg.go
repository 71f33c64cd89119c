// Copyright 2023 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This file is copied from Go 1.26's src/math/rand/v2/pcg.go (the PCG-DXSM
// generator's step and output), without its serialisation, as the
// unexported pcg: a copy whose methods are small enough for the compiler
// to inline into Source's, which rand.PCG's Uint64 plus a conversion to
// float64 is not. rand.PCG's output is fixed by the Go 1 compatibility
// promise; TestPCGMatchesRand checks the copy against it.

package dist

import (
	"math/bits"

	"github.com/ressim/ressim/sim/internal/wide"
)

// pcg is rand.PCG: 128 bits of state, seeded as rand.NewPCG(hi, lo).
type pcg struct {
	hi uint64
	lo uint64
}

// Uint64 is (*rand.PCG).Uint64: one step of the 128-bit LCG, then the
// DXSM ("double xorshift multiply") output function. Its statements are
// rand's, merged where that shrinks the function's inlining cost.
// https://github.com/imneme/pcg-cpp/blob/428802d1a5/include/pcg_random.hpp#L161
// https://github.com/imneme/pcg-cpp/blob/428802d1a5/include/pcg_random.hpp#L1015
func (p *pcg) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	// state = state * mul + inc
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	var c uint64
	if wide.Wasm { // no add-with-carry there, and Uint64 inlines
		lo, c = wide.AddCarry(lo, incLo)
		hi += incHi + c
	} else {
		lo, c = bits.Add64(lo, incLo, 0)
		hi, _ = bits.Add64(hi, incHi, c)
	}
	p.lo, p.hi = lo, hi
	// DXSM, rand's four assignments and return written as two statements
	hi = (hi ^ hi>>32) * cheapMul
	return (hi ^ hi>>48) * (lo | 1)
}

// float64 is (*rand.Rand).Float64 over p: the low 53 bits of a draw as a
// fraction in [0, 1). The mask is rand's <<11>>11 and the product its
// division by 1<<53 (scaling by a power of two is exact either way).
func (p *pcg) float64() float64 {
	return float64(p.Uint64()&(1<<53-1)) * (1.0 / (1 << 53))
}
