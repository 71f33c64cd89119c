package wasmjump

import "errors"

// Stats counts what Thread did to a module.
type Stats struct {
	Functions int // function bodies read
	Loops     int // bodies with a dispatch loop
	Forward   int // jumps made direct branches
	Folded    int // of those, ifs folded into a br_if
	Backward  int // jumps left to the dispatch loop
	Unlooped  int // dispatch loops made blocks: nothing branches back to them
	Copies    int // memory.copy written out as loads and stores
	Fills     int // memory.fill written out as stores
	Forwarded int // loads of a frame slot made reads of a local (forward.go)
	Exits     int // panics' paths made to end at the call (exits.go)
	Offsets   int // frame addresses folded into their access's offset (fold.go)
	Narrowed  int // widened booleans' tests made 32-bit (fold.go)
}

// dispatch describes a body's entry loop (indices are into the body's
// instructions).
type dispatch struct {
	loop   int      // the loop instruction
	code   int      // the first instruction after the br_table block's end: basic block 0
	blocks int      // the blocks around the br_table, one a basic block after the first
	pcB    int64    // PC_B's local
	labels []uint32 // the br_table's targets, the default last
}

// findDispatch recognises the start Go's back end gives a function with
// an entry loop: [global.get SP; local.set SP'] [block] loop block^m
// local.get PC_B br_table … end (the first pair caches the stack pointer
// in a local).
func findDispatch(ins []inst) (dispatch, bool) {
	i := 0
	if len(ins) > 1 && ins[0].op == opGlobalGet && ins[1].op == opLocalSet {
		i = 2
	}
	if i < len(ins) && ins[i].op == opBlock {
		i++ // the unwind exit
	}
	if i >= len(ins) || ins[i].op != opLoop || ins[i].imm != blockEmpty {
		return dispatch{}, false
	}
	loop := i
	i++
	m := 0
	for i < len(ins) && ins[i].op == opBlock && ins[i].imm == blockEmpty {
		i++
		m++
	}
	if m == 0 || i+2 >= len(ins) || ins[i].op != opLocalGet || ins[i+1].op != opBrTable || ins[i+2].op != opEnd {
		return dispatch{}, false
	}
	for _, l := range ins[i+1].labels {
		if int(l) >= m {
			return dispatch{}, false
		}
	}
	return dispatch{loop: loop, code: i + 3, blocks: m, pcB: ins[i].imm, labels: ins[i+1].labels}, true
}

// entry is the edit that sends a call (PC_B 0, not a resumption) to its
// basic block with a conditional branch before the br_table: engines
// compile a br_table into a bounds check and an indirect jump, taken on
// every call otherwise.
func (d dispatch) entry() edit {
	get := appendUleb([]byte{opLocalGet}, uint64(d.pcB))
	b := append(append([]byte(nil), get...), opI32Eqz, opBrIf)
	b = appendUleb(b, uint64(d.labels[0]))
	return edit{from: d.code - 3, to: d.code - 2, b: append(b, get...)}
}

// target returns the block a jump to pc reaches, as the br_table would.
func (d dispatch) target(pc int64) int {
	if pc < 0 || pc >= int64(len(d.labels)-1) {
		return int(d.labels[len(d.labels)-1])
	}
	return int(d.labels[pc])
}

// edit replaces the instructions ins[from:to] with the bytes b.
type edit struct {
	from, to int
	b        []byte
}

// plan finds the jumps of a body with dispatch d that can be direct
// branches and returns the edits, in order. When no branch is left that
// goes back to the entry loop, the loop becomes a block (the first edit):
// the engine then has no loop to check for interrupts and no values to
// merge at its head.
func plan(ins []inst, d dispatch, st *Stats) ([]edit, error) {
	edits := []edit{{from: d.loop, to: d.loop + 1, b: []byte{opBlock, blockEmpty}}, d.entry()}
	looped := false   // a branch back to the loop is left
	seg, nest := 0, 0 // the basic block being read; explicit blocks open in it
	for k := d.code; k < len(ins); k++ {
		loopDepth := int64(nest + d.blocks - 1 - seg)
		switch ins[k].op {
		case opBr, opBrIf:
			looped = looped || ins[k].imm == loopDepth
			continue
		case opBrTable:
			for _, l := range ins[k].labels {
				looped = looped || int64(l) == loopDepth
			}
			continue
		case opBlock, opLoop, opIf:
			nest++
			continue
		case opEnd:
			if nest > 0 {
				nest--
				continue
			}
			seg++
			if seg < d.blocks {
				continue
			}
			if looped { // the entry loop's end
				return edits[1:], nil
			}
			st.Unlooped++
			return edits, nil
		case opI32Const:
		default:
			continue
		}
		if k+2 >= len(ins) || ins[k+1].op != opLocalSet || ins[k+1].imm != d.pcB ||
			ins[k+2].op != opBr || ins[k+2].imm != loopDepth {
			continue
		}
		to := d.target(ins[k].imm)
		if to <= seg {
			st.Backward++
			looped = true
			k += 2
			continue
		}
		st.Forward++
		depth := uint64(nest + to - seg - 1)
		if k > 0 && k+3 < len(ins) && ins[k-1].op == opIf && ins[k-1].imm == blockEmpty && ins[k+3].op == opEnd && nest > 0 {
			st.Folded++
			edits = append(edits, edit{from: k - 1, to: k + 4, b: appendUleb([]byte{opBrIf}, depth-1)})
			nest-- // the if is gone with its end
			k += 3
			continue
		}
		edits = append(edits, edit{from: k, to: k + 3, b: appendUleb([]byte{opBr}, depth)})
		k += 2
	}
	return nil, errors.New("entry loop without its end")
}
