package wasmjump

// Go's back end follows every call with the test that unwinds the
// WebAssembly stack when the callee did (a goroutine switch, a panic):
//
//	call F; global.get SP; local.set SP'; br_if $exit
//
// where $exit is the function's outermost block, after whose end the
// function returns 1. The runtime's panics (sigpanic for a nil
// dereference, goPanicIndex and the others for an index out of range,
// gopanic, throw) never return normally: they return 1, unwinding, or the
// program ends. Yet the engine compiles the nil check's or bound check's
// call as one that may come back to the code after the check, so every
// value that code uses must survive the call: V8 keeps such values in
// stack slots, and stores them there on the hot path, before the check.
//
// exits makes the panic's path end at the call: call F; return, which
// returns the 1 the call returned, as the branch to $exit would have.
// What the call may come back to is then nothing, and the values the
// checked code uses no longer live across it.

// exits returns the edits that end the paths of the calls to the
// runtime's panics in ins at a return; sp is the local that caches SP.
func exits(ins []inst, fn *funcInfo, sp int64) []edit {
	if fn == nil || !unwindsAtEnd(ins) {
		return nil
	}
	var out []edit
	depth := 0 // constructs open before ins[k]
	for k := 0; k < len(ins); k++ {
		switch in := ins[k]; in.op {
		case opBlock, opLoop, opIf:
			depth++
		case opEnd:
			depth--
		case 0x10: // call
			if in.imm < 0 || in.imm >= int64(len(fn.noReturn)) || !fn.noReturn[in.imm] || k+3 >= len(ins) {
				continue
			}
			g, set, br := ins[k+1], ins[k+2], ins[k+3]
			if g.op != opGlobalGet || g.imm != 0 || set.op != opLocalSet || set.imm != sp ||
				br.op != opBrIf || br.imm != int64(depth-1) {
				continue
			}
			out = append(out, edit{from: k + 1, to: k + 4, b: []byte{0x0f}})
			k += 3
		}
	}
	return out
}

// unwindsAtEnd reports whether ins is a Go function whose outermost
// construct is a block after whose end it returns 1 (the unwinding exit):
// global.get SP; local.set SP'; block … end; i32.const 1; end.
func unwindsAtEnd(ins []inst) bool {
	n := len(ins)
	if n < 6 || ins[0].op != opGlobalGet || ins[1].op != opLocalSet || ins[2].op != opBlock ||
		ins[n-1].op != opEnd || ins[n-2].op != opI32Const || ins[n-2].imm != 1 || ins[n-3].op != opEnd {
		return false
	}
	depth := 0
	for k := 2; k < n-2; k++ {
		switch ins[k].op {
		case opBlock, opLoop, opIf:
			depth++
		case opEnd:
			depth--
			if depth == 0 && k != n-3 {
				return false // the first block ends before the function does
			}
		}
	}
	return depth == 0
}
