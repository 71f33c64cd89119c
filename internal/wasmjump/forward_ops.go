package wasmjump

import "slices"

// step reads the non-structural instruction ins[k] in live code; false
// means the function is to be left alone.
func (f *forwarder) step(k int) bool {
	in := f.ins[k]
	op := in.op
	switch {
	case op == 0x00 || op == 0x0f: // unreachable, return
		f.kill()
	case op == 0x01: // nop
	case op == opBr:
		f.branch(in.imm)
		f.kill()
	case op == opBrIf:
		if !f.popPlain(1) {
			return false
		}
		f.branch(in.imm)
	case op == opBrTable:
		if !f.popPlain(1) {
			return false
		}
		for _, l := range in.labels {
			f.branch(int64(l))
		}
		f.kill()
	case op == 0x10 || op == 0x11: // call, call_indirect
		return f.call(in)
	case op == 0x1a: // drop
		_, ok := f.pop()
		return ok
	case op >= opLocalGet && op <= 0x24:
		return f.variable(k)
	case isLoad(op):
		return f.load(k)
	case isStore(op):
		return f.store(k)
	case op == 0xfc:
		return f.prefixFC(in)
	default:
		return f.numeric(in)
	}
	return true
}

// numeric handles the constants, the arithmetic, the comparisons and the
// conversions, select and memory.size and memory.grow.
func (f *forwarder) numeric(in inst) bool {
	switch op := in.op; {
	case op == opI32Const:
		return f.push(value{vC32, in.imm})
	case op == 0x42: // i64.const
		return f.push(value{vC64, in.imm})
	case op == 0x43 || op == 0x44 || op == 0x3f: // f32.const, f64.const, memory.size
		return f.push(value{})
	case op >= 0x46 && op <= 0x4f || op >= 0x51 && op <= 0x5a:
		// Integer comparisons: the stack check compares SP with the
		// goroutine's bound, which lets nothing out.
		_, ok1 := f.pop()
		_, ok2 := f.pop()
		return ok1 && ok2 && f.push(value{})
	case op == 0x6a || op == 0x6b || op == 0x7c || op == 0x7d: // add, sub
		return f.arith(op)
	case op == 0xa7 || op == 0xad: // i32.wrap_i64, i64.extend_i32_u
		return f.convert(op)
	case op == 0x40 || isUnary(op):
		return f.popPlain(1) && f.push(value{}) // unary, memory.grow
	case isBinary(op):
		return f.popPlain(2) && f.push(value{}) // binary
	case op == 0x1b: // select
		return f.popPlain(3) && f.push(value{})
	}
	return false
}

// convert handles i32.wrap_i64 and i64.extend_i32_u, which keep an
// address an address.
func (f *forwarder) convert(op byte) bool {
	v, ok := f.pop()
	switch {
	case !ok:
		return false
	case op == 0xa7 && v.kind == vSP64:
		v.kind = vSP32
	case op == 0xad && v.kind == vSP32:
		v.kind = vSP64
	default:
		if v.sp() {
			f.escape(v)
		}
		v = value{}
	}
	return f.push(v)
}

// call pops a call's operands; a call may change the frame, and a
// panic's never returns.
func (f *forwarder) call(in inst) bool {
	var params, results int
	if in.op == 0x10 {
		if in.imm < 0 || in.imm >= int64(len(f.fn.params)) {
			return false
		}
		params, results = f.fn.params[in.imm], f.fn.results[in.imm]
	} else {
		if in.imm < 0 || in.imm >= int64(len(f.fn.typeParams)) {
			return false
		}
		params, results = f.fn.typeParams[in.imm]+1, f.fn.typeResults[in.imm]
	}
	if !f.popPlain(params) {
		return false
	}
	for range results {
		f.push(value{})
	}
	f.facts = f.facts[:0]
	if in.op == 0x10 && f.fn.noReturn[in.imm] {
		f.kill()
	}
	return true
}

// variable handles local.get, local.set, local.tee, global.get and
// global.set.
func (f *forwarder) variable(k int) bool {
	in := f.ins[k]
	switch in.op {
	case opLocalGet:
		if in.imm == f.sp {
			return f.push(value{kind: vSP32})
		}
		return f.push(value{})
	case opGlobalGet:
		if in.imm == 0 {
			return f.push(value{kind: vSPG})
		}
		return f.push(value{})
	}
	v, ok := f.pop()
	if !ok {
		return false
	}
	switch in.op {
	case opLocalSet, 0x22: // local.set, local.tee
		if in.imm == f.sp { // SP moves: offsets mean other slots
			f.moveSP(k, v)
			f.facts = f.facts[:0]
			if in.op == 0x22 {
				f.push(value{kind: vSP32})
			}
			return true
		}
		if v.sp() {
			f.escape(v)
		}
		if in.op == 0x22 {
			f.push(value{})
		}
	default: // global.set
		if in.imm != 0 && v.sp() {
			f.escape(v)
		}
	}
	return true
}

// moveSP notes how ins[k] sets SP to v: restored from the global (at entry
// and after a call), down 8 for a call's return address (stored next),
// down by the frame's size (the prologue, once), up by it (an epilogue),
// or otherwise.
func (f *forwarder) moveSP(k int, v value) {
	ret := k+4 < len(f.ins) && f.ins[k+1].op == 0x24 && f.ins[k+2].op == opLocalGet && f.ins[k+2].imm == f.sp &&
		f.ins[k+3].op == 0x42 && f.ins[k+4].op == 0x37 && f.ins[k+4].imm == 0
	switch {
	case v.kind == vSPG:
	case v.kind == vSP32 && v.off == -8 && ret:
	case v.kind == vSP32 && v.off < 0 && !f.prologue && f.ins[k].op == 0x22:
		f.prologue, f.fs = true, -v.off
	case v.kind == vSP32 && v.off > 0 && f.returns(k): // an epilogue
	default:
		f.oddSP = true
	}
}

// arith handles i32 and i64 add and sub, which move an address from SP
// by a constant.
func (f *forwarder) arith(op byte) bool {
	b, ok1 := f.pop()
	a, ok2 := f.pop()
	if !ok1 || !ok2 {
		return false
	}
	sp, c := vSP32, uint8(vC32)
	if op == 0x7c || op == 0x7d {
		sp, c = vSP64, vC64
	}
	switch {
	case a.kind == uint8(sp) && b.kind == c:
		if op == 0x6b || op == 0x7d {
			return f.push(value{uint8(sp), a.off - b.off})
		}
		return f.push(value{uint8(sp), a.off + b.off})
	case a.kind == c && b.kind == uint8(sp) && (op == 0x6a || op == 0x7c):
		return f.push(value{uint8(sp), a.off + b.off})
	}
	for _, v := range []value{a, b} {
		if v.sp() {
			f.escape(v)
		}
	}
	return f.push(value{})
}

// load handles a load at ins[k]: an i64.load of a frame slot is either
// read from the slot's local (a consumer) or copies its value there (a
// producer).
func (f *forwarder) load(k int) bool {
	in := f.ins[k]
	a, ok := f.pop()
	if !ok {
		return false
	}
	f.push(value{})
	if a.kind != vSP32 || in.op != 0x29 {
		return true
	}
	slot := a.off + in.imm
	if i := f.find(slot); i >= 0 && a.off == 0 && f.ins[k-1].op == opLocalGet && f.ins[k-1].imm == f.sp {
		f.uses[k] = f.facts[i].prods
		return true
	}
	f.setFact(slot, k)
	return true
}

// store handles a store at ins[k]: one to the frame changes what is
// known of the slots it overlaps; an 8-byte one makes its value known.
func (f *forwarder) store(k int) bool {
	in := f.ins[k]
	v, ok1 := f.pop()
	a, ok2 := f.pop()
	if !ok1 || !ok2 {
		return false
	}
	if v.sp() {
		f.escape(v)
	}
	switch a.kind {
	case vSPG: // the frame, from the global: no slot known
		f.facts = f.facts[:0]
	case vSP32:
		slot := a.off + in.imm
		f.clobber(slot, storeWidth(in.op))
		if in.op == 0x37 {
			f.setFact(slot, k)
		}
	case vSP64:
		return false // not an i32 address
	default:
		f.unknownStore()
	}
	return true
}

// unknownStore forgets what a store through an address not known to be
// in the frame may have changed: nothing if the frame's address never
// gets out, the frame's own slots (and, to be safe, the return address
// slot after them) if only theirs do, else everything.
func (f *forwarder) unknownStore() {
	switch f.mode {
	case modeLocal:
		f.facts = slices.DeleteFunc(f.facts, func(x fact) bool { return x.off < f.fs+8 })
	case modeAll:
		f.facts = f.facts[:0]
	}
}

// storeWidth is the width in bytes of a store, i32.store (0x36) to
// i64.store32 (0x3e).
func storeWidth(op byte) int64 {
	switch op {
	case 0x37, 0x39: // i64.store, f64.store
		return 8
	case 0x3a, 0x3c: // i32.store8, i64.store8
		return 1
	case 0x3b, 0x3d: // i32.store16, i64.store16
		return 2
	}
	return 4
}

// prefixFC handles the 0xfc instructions Go writes: the saturating
// truncations, and memory.copy and memory.fill, which may write the
// frame.
func (f *forwarder) prefixFC(in inst) bool {
	switch {
	case in.imm <= 7:
		return f.popPlain(1) && f.push(value{})
	case in.imm == 10: // memory.copy: n, src, dst (addresses used at once)
		for range 3 {
			if _, ok := f.pop(); !ok {
				return false
			}
		}
	case in.imm == 11: // memory.fill: n, value (plain), dst (used at once)
		if !f.popPlain(2) {
			return false
		}
		if _, ok := f.pop(); !ok {
			return false
		}
	default:
		return false
	}
	f.facts = f.facts[:0]
	return true
}

// returns reports whether ins[k] is followed by nothing but SP's own
// moves up to a return: the frame's and the return address's pop.
func (f *forwarder) returns(k int) bool {
	for j := k + 1; j < len(f.ins) && j <= k+12; j++ {
		switch in := f.ins[j]; in.op {
		case 0x0f:
			return true
		case opLocalGet, opLocalSet, 0x22:
			if in.imm != f.sp {
				return false
			}
		case 0x24:
			if in.imm != 0 {
				return false
			}
		case opI32Const, 0x6a: // i32.add
		default:
			return false
		}
	}
	return false
}
