package wasmjump

import "errors"

// Stats counts what Thread did to a module.
type Stats struct {
	Functions int // function bodies read
	Loops     int // bodies with a dispatch loop
	Forward   int // jumps made direct branches
	Folded    int // of those, ifs folded into a br_if
	Backward  int // jumps left to the dispatch loop
	Copies    int // memory.copy written out as loads and stores
	Fills     int // memory.fill written out as stores
}

// dispatch describes a body's entry loop: the index of the instruction
// after the br_table block's end, the number of blocks around the
// br_table, PC_B's local and the br_table's targets.
type dispatch struct {
	code   int
	blocks int
	pcB    int64
	labels []uint32
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
	return dispatch{code: i + 3, blocks: m, pcB: ins[i].imm, labels: ins[i+1].labels}, true
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
// branches and returns the edits, in order.
func plan(ins []inst, d dispatch, st *Stats) ([]edit, error) {
	var edits []edit
	seg, nest := 0, 0 // the basic block being read; explicit blocks open in it
	for k := d.code; k < len(ins); k++ {
		switch ins[k].op {
		case opBlock, opLoop, opIf:
			nest++
			continue
		case opEnd:
			if nest > 0 {
				nest--
				continue
			}
			seg++
			if seg == d.blocks {
				return edits, nil // the entry loop's end
			}
			continue
		case opI32Const:
		default:
			continue
		}
		loopDepth := int64(nest + d.blocks - 1 - seg)
		if k+2 >= len(ins) || ins[k+1].op != opLocalSet || ins[k+1].imm != d.pcB ||
			ins[k+2].op != opBr || ins[k+2].imm != loopDepth {
			continue
		}
		to := d.target(ins[k].imm)
		if to <= seg {
			st.Backward++
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
