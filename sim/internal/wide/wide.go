package wide

import (
	"math/bits"
	"runtime"
)

// Wasm reports that this build is for WebAssembly, where the functions
// here beat math/bits. It is a constant: a caller writes
//
//	if wide.Wasm {
//		lo, c = wide.AddCarry(lo, x)
//	} else {
//		lo, c = bits.Add64(lo, x, 0)
//	}
//
// and the compiler keeps one branch, and does not count the other in the
// function's inlining cost. (A wrapper choosing by build tag would cost
// its callers about 7 units of the inliner's budget of 80 natively, and
// take pcg.Uint64 over it.)
const Wasm = runtime.GOARCH == "wasm"

// AddCarry returns x + y modulo 2^64 and the carry out of it, 1 or 0:
// bits.Add64(x, y, 0) by a comparison, the sum having wrapped exactly
// when it is below an addend.
func AddCarry(x, y uint64) (sum, carry uint64) {
	if sum = x + y; sum < x {
		carry = 1 // no else: the compiler makes carry the comparison itself
	}
	return sum, carry
}

// SubBorrow returns x - y modulo 2^64 and the borrow out of it, 1 or
// 0: bits.Sub64(x, y, 0) by a comparison.
func SubBorrow(x, y uint64) (diff, borrow uint64) {
	if x < y {
		borrow = 1
	}
	return x - y, borrow
}

// Less returns 1 if the 128-bit number (xhi, xlo) is below (yhi, ylo),
// both unsigned, and 0 otherwise, by three comparisons and no branch.
func Less(xhi, xlo, yhi, ylo uint64) uint64 {
	return b2u(xhi < yhi) | b2u(xhi == yhi)&b2u(xlo < ylo)
}

// Mul returns the 128-bit product of x and y as (hi, lo): one multiply
// when both fit in 32 bits, whose product then fits in 64, and
// bits.Mul64 otherwise.
func Mul(x, y uint64) (hi, lo uint64) {
	if (x|y)>>32 == 0 {
		return 0, x * y
	}
	return bits.Mul64(x, y)
}

// b2u is x as 1 or 0; the compiler makes it the comparison's own result,
// without a branch.
func b2u(x bool) uint64 {
	if x {
		return 1
	}
	return 0
}
