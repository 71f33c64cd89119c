package wasmjump

import "slices"

// Kinds of the values forward follows on the operand stack.
const (
	vOther = iota
	vSP32  // the local SP plus off, an i32
	vSP64  // the same, extended to an i64
	vSPG   // the global SP: only to be cached in the local
	vC32   // an i32 constant off
	vC64   // an i64 constant off
)

type value struct {
	kind uint8
	off  int64
}

func (v value) sp() bool { return v.kind == vSP32 || v.kind == vSP64 || v.kind == vSPG }

// fact says that the frame's 8 bytes at off are in the slot's local,
// which the instructions prods (producers, on the paths that reach this
// point) wrote.
type fact struct {
	off   int64
	prods []int
}

// frame is a control construct open at the point being read.
type frame struct {
	op       byte
	height   int    // operand stack height at its start
	dead     bool   // opened in unreachable code
	saved    []fact // an if's facts at its start, for the else or the end
	joined   bool   // a branch to its end was seen
	incoming []fact // the meet of the facts of the branches to its end
}

type forwarder struct {
	ins  []inst
	fn   *funcInfo
	sp   int64
	mode uint8
	// What the first pass learns of SP: the frame's size (the prologue's
	// move of SP), whether SP moves in any other way than the prologue,
	// a call's return address and its restoring from the global after a
	// call, and the frame addresses that got out.
	fs       int64
	prologue bool
	oddSP    bool
	escapes  []escaped
	escG     bool
	stack    []value
	ctl      []frame
	facts    []fact
	dead     bool
	uses     map[int][]int // consumer (the i64.load) -> producers
	prodOf   map[int]int64 // producer -> slot offset
}

// run reads the body; false means the function is to be left alone.
func (f *forwarder) run() bool {
	f.uses, f.prodOf = map[int][]int{}, map[int]int64{}
	for k := 2; k < len(f.ins); k++ {
		in := f.ins[k]
		switch in.op {
		case opBlock, opLoop, opIf, opElse, opEnd:
			if len(f.ctl) == 0 && in.op == opEnd { // the function's end
				return k == len(f.ins)-1
			}
			if !f.structure(k) {
				return false
			}
			continue
		}
		if f.dead {
			continue
		}
		if !f.step(k) {
			return false
		}
	}
	return false // no end
}

// structure handles block, loop, if, else and end at ins[k].
func (f *forwarder) structure(k int) bool {
	in := f.ins[k]
	switch in.op {
	case opBlock, opLoop, opIf:
		if in.op == opIf && !f.dead && !f.popPlain(1) {
			return false
		}
		fr := frame{op: in.op, height: len(f.stack), dead: f.dead}
		if in.op == opIf {
			fr.saved = cloneFacts(f.facts)
		}
		if in.op == opLoop {
			f.facts = f.facts[:0] // the head joins the back edges
		}
		f.ctl = append(f.ctl, fr)
	case opElse:
		if len(f.ctl) == 0 {
			return false
		}
		fr := &f.ctl[len(f.ctl)-1]
		if fr.op != opIf {
			return false
		}
		if !f.dead {
			f.branchTo(fr)
		}
		fr.op = opElse
		f.stack = f.stack[:fr.height]
		f.dead = fr.dead
		f.facts = cloneFacts(fr.saved)
	case opEnd:
		if len(f.ctl) == 0 {
			return false
		}
		fr := f.ctl[len(f.ctl)-1]
		f.ctl = f.ctl[:len(f.ctl)-1]
		if !f.dead && len(f.stack) != fr.height {
			return false
		}
		f.stack = f.stack[:min(fr.height, len(f.stack))]
		f.join(&fr)
	}
	return true
}

// join sets the facts after fr's end: the meet of the fallthrough (if
// live), an if's false edge (an if without else) and the branches to
// the end (not for a loop, whose branches go to its head).
func (f *forwarder) join(fr *frame) {
	if fr.dead {
		f.dead = true
		return
	}
	live := !f.dead
	if fr.op == opIf { // no else: the condition's false edge
		if live {
			f.facts = meet(f.facts, fr.saved)
		} else {
			f.facts, live = cloneFacts(fr.saved), true
		}
	}
	if fr.op != opLoop && fr.joined {
		if live {
			f.facts = meet(f.facts, fr.incoming)
		} else {
			f.facts, live = cloneFacts(fr.incoming), true
		}
	}
	f.dead = !live
	if f.dead {
		f.facts = f.facts[:0]
	}
}

// branchTo records the current facts as reaching fr's end.
func (f *forwarder) branchTo(fr *frame) {
	if fr.op == opLoop {
		return
	}
	if !fr.joined {
		fr.joined, fr.incoming = true, cloneFacts(f.facts)
		return
	}
	fr.incoming = meet(fr.incoming, f.facts)
}

// branch handles a branch to relative depth d.
func (f *forwarder) branch(d int64) {
	if d < int64(len(f.ctl)) {
		f.branchTo(&f.ctl[len(f.ctl)-1-int(d)])
	}
}

func (f *forwarder) push(v value) bool {
	f.stack = append(f.stack, v)
	return true
}

func (f *forwarder) pop() (value, bool) {
	if len(f.stack) == 0 || len(f.ctl) > 0 && len(f.stack) <= f.ctl[len(f.ctl)-1].height {
		return value{}, false
	}
	v := f.stack[len(f.stack)-1]
	f.stack = f.stack[:len(f.stack)-1]
	return v, true
}

// popPlain pops n values; one that is an address in the frame gets out
// (an address used any other way than those the pass follows lets the
// frame out).
func (f *forwarder) popPlain(n int) bool {
	for range n {
		v, ok := f.pop()
		if !ok {
			return false
		}
		if v.sp() {
			f.escape(v)
		}
	}
	return true
}

// kill marks the code that follows as unreachable, up to the end (or
// else) of the construct it is in.
func (f *forwarder) kill() {
	f.dead = true
	f.facts = f.facts[:0]
	if len(f.ctl) > 0 {
		f.stack = f.stack[:f.ctl[len(f.ctl)-1].height]
	} else {
		f.stack = f.stack[:0]
	}
}

// find returns the index of slot's fact, or -1.
func (f *forwarder) find(slot int64) int {
	return slices.IndexFunc(f.facts, func(x fact) bool { return x.off == slot })
}

// setFact makes the instruction at k the one producer of slot's value.
func (f *forwarder) setFact(slot int64, k int) {
	f.prodOf[k] = slot
	if i := f.find(slot); i >= 0 {
		f.facts[i].prods = []int{k}
		return
	}
	f.facts = append(f.facts, fact{off: slot, prods: []int{k}})
}

// clobber forgets the slots that overlap [off, off+n).
func (f *forwarder) clobber(off, n int64) {
	f.facts = slices.DeleteFunc(f.facts, func(x fact) bool { return x.off < off+n && off < x.off+8 })
}

func cloneFacts(fs []fact) []fact {
	return append([]fact(nil), fs...)
}

// meet keeps the slots known in both a and b, with the producers of
// both.
func meet(a, b []fact) []fact {
	var out []fact
	for _, x := range a {
		for _, y := range b {
			if x.off == y.off {
				prods := append(append([]int(nil), x.prods...), y.prods...)
				slices.Sort(prods)
				out = append(out, fact{off: x.off, prods: slices.Compact(prods)})
				break
			}
		}
	}
	return out
}
