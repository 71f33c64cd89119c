//go:build !linux

package report

// newPixels returns n bytes of pixel memory.
func newPixels(n int) []uint8 { return make([]uint8, n) }
