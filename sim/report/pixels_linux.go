package report

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of an x86-64 or arm64 Linux transparent huge page.
const hugePage = 2 << 20

// newPixels returns n bytes of pixel memory on huge-page boundaries,
// advised to Linux as huge pages (MADV_HUGEPAGE; "madvise" is the usual
// transparent-huge-page setting). Every pixel is written as the figure's
// background at once: 4 KiB pages fault a thousand times per 1200 x 900
// figure, about a sixth of its drawing on a virtual machine; 2 MiB pages
// three times. The bytes written are the same; if Linux says no, the
// memory is ordinary.
func newPixels(n int) []uint8 {
	if n < hugePage {
		return make([]uint8, n)
	}
	b := make([]uint8, n+hugePage)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := int((p+hugePage-1)&^(hugePage-1) - p)
	b = b[off : off+n : off+n]
	// Only the whole huge pages inside b are advised: the advice never
	// reaches memory that is not b's (the tail stays in 4 KiB pages).
	_ = syscall.Madvise(b[:n&^(hugePage-1)], syscall.MADV_HUGEPAGE)
	return b
}
