package wasmjump

import "strings"

// Go's WebAssembly back end keeps a function's arguments and spilled
// values in its frame, in linear memory below the stack pointer (a local,
// SP, cached from the global at entry and after each call), and loads an
// argument again from the frame at each use: the receiver of a method is
// loaded a dozen times in a hot handler. V8 cannot keep such a value in a
// register, because a store through any other pointer between two loads
// (a field of the receiver, say) might for all it knows have changed the
// frame.
//
// forward proves that it cannot: in a function that never lets the
// address of its frame out (every address computed from SP is used at
// once by a load or a store, or to move SP itself), only the function's
// own stores at SP-relative addresses change its frame and its argument
// slots between two calls. Any call may change them (the callee writes
// its results there, a grown stack moves them, the JavaScript host writes
// into the frame of an import's caller), and so does moving SP. Between
// such points, a later 8-byte load (i64.load) of a slot is replaced by a
// read of a new local that the first load (or the last 8-byte store) of
// the slot copied its value to with local.tee. What is known flows
// forward along the branches (Go's are forward, but for loops): where
// paths join, at a block's end, a slot's value is known if it is known on
// every path that reaches it; a loop's head knows nothing. A call to one
// of the runtime's panics does not return, so nothing flows on after it.
//
// A function that lets its frame's address out in any other way (a
// pointer to a local passed on, a defer record linked into the
// goroutine) is read a second time in a mode that says what a store
// through an unknown address may change (classify); a function in the
// runtime's low-level packages that does so, or one that uses an
// instruction this pass does not know, is left as it is.

// forward is the pass over one body's instructions ins: it returns the
// edits (in order) and the number of new i64 locals they read and
// write, numbered from first; or no edits.
func forward(b []byte, ins []inst, fn *funcInfo, idx int, first uint32) (edits []edit, locals uint32, reads int) {
	if fn == nil || len(ins) < 2 || ins[0].op != opGlobalGet || ins[0].imm != 0 || ins[1].op != opLocalSet {
		return nil, 0, 0
	}
	f := &forwarder{ins: ins, fn: fn, sp: ins[1].imm}
	if !f.run() {
		return nil, 0, 0
	}
	if len(f.escapes) > 0 || f.escG {
		mode := f.classify(fn.name(idx))
		if mode == modeSkip {
			return nil, 0, 0
		}
		f = &forwarder{ins: ins, fn: fn, sp: ins[1].imm, mode: mode}
		if !f.run() {
			return nil, 0, 0
		}
	}
	if len(f.uses) == 0 {
		return nil, 0, 0
	}
	edits, locals = f.edits(b, first)
	return edits, locals, len(f.uses)
}

// The modes of the pass over a function whose frame's address gets out.
const (
	modeNone  = iota // it does not: only SP-relative stores change the frame
	modeLocal        // addresses of the frame's own slots (below its arguments) get out
	modeAll          // any address in the frame may get out
	modeSkip         // the function is left alone
)

// classify chooses the mode for a function whose frame's address got out
// (the first pass's escapes). An address of a slot of the frame's own,
// below the return address and the arguments, reaches only the object
// there (Go's pointers do not leave their object), so a store through an
// unknown address can change those slots only: the arguments stay known.
// Anything less clear, and any escape in the runtime's and the standard
// library's low-level packages (which use unsafe arithmetic), makes every
// such store change every slot, or leaves the function alone.
func (f *forwarder) classify(name string) uint8 {
	for _, p := range []string{"runtime.", "internal_", "syscall", "reflect.", "sync", "unsafe", "os.", "math_big."} {
		if strings.HasPrefix(name, p) {
			return modeSkip
		}
	}
	if f.escG || f.oddSP || !f.prologue {
		return modeAll
	}
	for _, e := range f.escapes {
		if !e.afterPrologue || e.off < 8 || e.off+8 >= f.fs {
			return modeAll
		}
	}
	return modeLocal
}

// escape records that v, an address in the frame, got out.
func (f *forwarder) escape(v value) {
	if v.kind == vSPG {
		f.escG = true
		return
	}
	f.escapes = append(f.escapes, escaped{off: v.off, afterPrologue: f.prologue})
}

type escaped struct {
	off           int64
	afterPrologue bool
}

// funcInfo is what forward needs to know of the module's functions:
// their parameter and result counts by function index (imports first),
// which never return, and the counts of each type (for call_indirect).
type funcInfo struct {
	params, results         []int
	noReturn                []bool
	typeParams, typeResults []int
	imports                 int               // imported functions, first in the index space
	names                   map[uint32]string // from the name section
}

// name returns the name of the body-th defined function ("" if unknown).
func (fi *funcInfo) name(body int) string {
	return fi.names[uint32(fi.imports+body)]
}

// edits writes the consumers as reads of their slot's local and the
// producers they read from as copies to it. The locals are numbered from
// first, one a slot.
func (f *forwarder) edits(b []byte, first uint32) ([]edit, uint32) {
	used := map[int]bool{}
	for _, prods := range f.uses {
		for _, p := range prods {
			used[p] = true
		}
	}
	local := map[int64]uint32{}
	n := uint32(0)
	localOf := func(slot int64) uint32 {
		l, ok := local[slot]
		if !ok {
			l = first + n
			local[slot] = l
			n++
		}
		return l
	}
	var out []edit
	for k := range f.ins {
		if prods, ok := f.uses[k]; ok {
			l := localOf(f.prodOf[prods[0]])
			out = append(out, edit{from: k - 1, to: k + 1, b: appendUleb([]byte{opLocalGet}, uint64(l))})
			continue
		}
		if !used[k] {
			continue
		}
		in := f.ins[k]
		tee := appendUleb([]byte{0x22}, uint64(localOf(f.prodOf[k])))
		if in.op == 0x29 { // a load: copy what it read
			out = append(out, edit{from: k, to: k + 1, b: append(append([]byte(nil), b[in.start:in.end]...), tee...)})
		} else { // a store: copy what it writes
			out = append(out, edit{from: k, to: k + 1, b: append(tee, b[in.start:in.end]...)})
		}
	}
	return out, n
}
