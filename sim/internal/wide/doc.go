// Package wide has the 128-bit arithmetic of the simulator's hot path (a
// carry, a product, a comparison) in the form WebAssembly computes
// cheaply.
//
// On amd64 and arm64, math/bits' Add64, Sub64 and Mul64 are single
// instructions, and the simulator uses them there. WebAssembly has no
// add-with-carry, subtract-with-borrow or 64x64->128 multiply: there
// math/bits computes a carry with seven bit operations and a product
// with four multiplies, while a comparison of two 64-bit numbers is one
// instruction giving 0 or 1. The functions here use comparisons, and a
// single multiply when both factors fit in 32 bits; callers choose them
// by the constant Wasm. They give math/bits' results to the bit
// (wide_test.go checks them natively against math/bits; the playground's
// tests check whole runs in WebAssembly against native ones).
//
// The functions are pure and safe for concurrent use.
package wide
