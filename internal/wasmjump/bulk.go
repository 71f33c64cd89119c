package wasmjump

// Go's WebAssembly back end copies a value of more than 16 bytes with
// memory.copy and zeroes one of more than 32 with memory.fill, both with a
// constant size. V8 compiles each into a call out of the module to C's
// memmove or memset, which costs far more than the few loads and stores a
// small copy needs. Thread writes those of at most maxInline bytes out as
// 8-byte loads and stores (then 4, 2, 1 for the tail), through two new
// locals.
//
// The copy goes forwards, word by word: that is memory.copy's result when
// the two ranges are disjoint or the same, and the back end only writes a
// constant-size memory.copy for a typed assignment (a Move), whose two
// sides are whole values of one type, so never overlap in part. (Go's
// copy and runtime.memmove keep their own memory.copy with a size computed
// at run time, which this leaves alone.)

// maxInline is the largest copy or fill written out, in bytes: 16 loads
// and stores at most.
const maxInline = 128

// bulk is a memory.copy or memory.fill with a constant size found in a
// body: the index of its first instruction (the size's i32.const, or the
// fill value's), one past its last, and its size.
type bulk struct {
	from, to int
	fill     bool
	size     int
}

// findBulk returns the memory.copy and memory.fill instructions of ins
// that Thread writes out.
func findBulk(ins []inst, out []bulk) []bulk {
	for k := 1; k < len(ins); k++ {
		in := ins[k]
		if in.op != 0xfc || ins[k-1].op != opI32Const || ins[k-1].imm <= 0 || ins[k-1].imm > maxInline {
			continue
		}
		size := int(ins[k-1].imm)
		switch in.imm {
		case 10: // memory.copy
			out = append(out, bulk{from: k - 1, to: k + 1, size: size})
		case 11: // memory.fill, of zeros only
			if k >= 2 && ins[k-2].op == opI32Const && ins[k-2].imm == 0 {
				out = append(out, bulk{from: k - 2, to: k + 1, fill: true, size: size})
			}
		}
	}
	return out
}

// expand writes b's loads and stores; dst and src are the new locals.
func (b bulk) expand(out []byte, dst, src uint32) []byte {
	// By width, 8, 4, 2 and 1 bytes: the load, the store, the constant.
	loads := [4]byte{0x29, 0x28, 0x2f, 0x2d}  // i64.load, i32.load, i32.load16_u, i32.load8_u
	stores := [4]byte{0x37, 0x36, 0x3b, 0x3a} // i64.store, i32.store, i32.store16, i32.store8
	zeros := [4]byte{0x42, 0x41, 0x41, 0x41}  // i64.const, i32.const (then 0)
	if !b.fill {
		out = appendUleb(append(out, opLocalSet), uint64(src))
	}
	out = appendUleb(append(out, opLocalSet), uint64(dst))
	off := 0
	for w, width := range [4]int{8, 4, 2, 1} {
		for ; b.size-off >= width; off += width {
			out = appendUleb(append(out, opLocalGet), uint64(dst))
			if b.fill {
				out = append(out, zeros[w], 0)
			} else {
				out = appendUleb(append(out, opLocalGet), uint64(src))
				out = appendUleb(append(out, loads[w], 0), uint64(off))
			}
			out = appendUleb(append(out, stores[w], 0), uint64(off))
		}
	}
	return out
}
