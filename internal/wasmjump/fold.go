package wasmjump

// Go's back end writes the address of an outgoing argument or result
// slot, SP+K, as 64-bit arithmetic wrapped back to 32 bits:
//
//	local.get SP; i64.extend_i32_u; i64.const K; i64.add; i32.wrap_i64
//	… the value …
//	i64.store offset=O
//
// V8 compiles that as an lea and a zero-extension before each access
// (wrapping is WebAssembly's semantics of i32 addresses), where an offset
// in the access itself costs nothing: x86's addressing adds it. A call
// with three arguments pays six such instructions.
//
// folds moves K into the access's offset: local.get SP … i64.store
// offset=O+K. The two differ only if SP+K reaches 2^32, where the first
// wraps and the second traps; SP+K is a slot of the function's own frame,
// inside the linear memory, whose size is below 2^32, so it never does.
// The same holds for loads of results. Only SP gets this treatment: a
// value from another local carries no such bound.
//
// Go also writes a boolean tested for false as i64.eqz; i64.extend_i32_u;
// i64.eqz (the comparison, widened to Go's 64-bit bool, compared with
// zero), which V8 compiles to setz, two zero-extensions and a test before
// the branch. Comparing the 32-bit result with zero (i32.eqz) is the same
// value, and V8 folds it into the branch.

// maxFoldScan is how many instructions folds reads after an address for
// the access that uses it; Go's argument values are a few instructions.
const maxFoldScan = 32

// folds returns the edits that fold SP-relative addresses into their
// accesses' offsets and shorten the widened booleans' tests in ins, the
// instructions of body b (sp is the local that caches SP), and how many
// of each it made.
func folds(b []byte, ins []inst, sp int64) (out []edit, offsets, narrowed int) {
	for k := 0; k+2 < len(ins); k++ {
		if e, ok := narrowEqz(ins, k); ok {
			out = append(out, e)
			narrowed++
			k += 2
			continue
		}
		if k+5 >= len(ins) || !spAddress(ins, k, sp) {
			continue
		}
		j, ok := access(ins, k+5, sp)
		if !ok {
			continue
		}
		off := ins[j].imm + ins[k+2].imm
		if ins[k+2].imm < 0 || off > 1<<32-1 {
			continue
		}
		out = append(out, edit{from: k + 1, to: k + 5},
			edit{from: j, to: j + 1, b: reoffset(b, ins[j], uint64(off))})
		offsets++
		k += 4
	}
	return out, offsets, narrowed
}

// foldBody applies folds to body b (instructions ins, local declarations
// l) and returns the body and its instructions, decoded again if changed.
func foldBody(b []byte, ins []inst, l locs, st *Stats) ([]byte, []inst, error) {
	if len(ins) < 2 || ins[0].op != opGlobalGet || ins[1].op != opLocalSet {
		return b, ins, nil // not Go's start: no SP cached
	}
	edits, offsets, narrowed := folds(b, ins, ins[1].imm)
	if len(edits) == 0 {
		return b, ins, nil
	}
	st.Offsets += offsets
	st.Narrowed += narrowed
	b = rewrite(b, ins, edits, l, 0, 0)
	ins, err := decode(&reader{b: b, pos: l.groupsEnd}, ins[:0])
	return b, ins, err
}

// narrowEqz reports the edit that writes ins[k:k+3], if it is i64.eqz;
// i64.extend_i32_u; i64.eqz, as i64.eqz; i32.eqz.
func narrowEqz(ins []inst, k int) (edit, bool) {
	if ins[k].op != 0x50 || ins[k+1].op != 0xad || ins[k+2].op != 0x50 {
		return edit{}, false
	}
	return edit{from: k + 1, to: k + 3, b: []byte{opI32Eqz}}, true
}

// spAddress reports whether ins[k:k+5] is Go's SP+K: local.get SP;
// i64.extend_i32_u; i64.const K; i64.add; i32.wrap_i64.
func spAddress(ins []inst, k int, sp int64) bool {
	return k+4 < len(ins) && ins[k].op == opLocalGet && ins[k].imm == sp && ins[k+1].op == 0xad &&
		ins[k+2].op == 0x42 && ins[k+3].op == 0x7c && ins[k+4].op == 0xa7
}

// access returns the index of the load or store, from ins[from] on in
// straight-line code, that takes as its address the value on top of the
// stack before ins[from]; false if another instruction uses that value,
// control leaves the straight line, or none does within maxFoldScan
// instructions. The count is of what the passes leave in place, so that a
// second pass finds nothing more to fold: another SP+K on the way counts
// as the one instruction it is once folded, and loads (which the frame
// pass may replace, with their address, by a local's read) not at all;
// each load needs an address pushed before it, so the scan stays short.
func access(ins []inst, from int, sp int64) (int, bool) {
	h := 1 // values on the stack from the address up
	for j, n := from, 0; j < len(ins) && n < maxFoldScan; j++ {
		if spAddress(ins, j, sp) {
			h, n, j = h+1, n+1, j+4
			continue
		}
		if !isLoad(ins[j].op) {
			n++
		}
		pop, push, ok := effect(ins[j])
		if !ok {
			return 0, false
		}
		if pop >= h {
			op := ins[j].op
			return j, isLoad(op) && h == 1 || isStore(op) && h == 2
		}
		h += push - pop
	}
	return 0, false
}

// effect is how many values the straight-line instruction in pops and
// pushes; false for control flow, calls and anything else.
func effect(in inst) (pop, push int, ok bool) {
	switch op := in.op; {
	case op == opLocalGet || op == opGlobalGet || op == opI32Const || op == 0x42 || op == 0x43 || op == 0x44:
		return 0, 1, true
	case op == opLocalSet || op == 0x24 || op == 0x1a: // local.set, global.set, drop
		return 1, 0, true
	case op == 0x22 || isLoad(op) || isUnary(op): // local.tee, loads, tests, conversions
		return 1, 1, true
	case isStore(op):
		return 2, 0, true
	case isBinary(op): // comparisons, arithmetic
		return 2, 1, true
	case op == 0x1b: // select
		return 3, 1, true
	}
	return 0, 0, false
}

// reoffset returns the bytes of the load or store in (read from b) with
// its offset set to off, its alignment hint kept.
func reoffset(b []byte, in inst, off uint64) []byte {
	r := &reader{b: b[:in.end], pos: in.start + 1}
	align, _ := r.u32() // decode read it: it cannot fail here
	out := append([]byte{in.op}, appendUleb(nil, uint64(align))...)
	return appendUleb(out, off)
}
