package wasmjump

import (
	"bytes"
	"strings"
	"testing"
)

// Shorthands for hand-written function bodies.
const (
	loop  = opLoop
	block = opBlock
	end   = opEnd
	e     = blockEmpty
)

// jump is Go's jump to basic block pc, written inside depth blocks of the
// dispatch loop.
func jump(pc, depth byte) []byte { return []byte{opI32Const, pc, opLocalSet, 0, opBr, depth} }

// cat joins byte slices and single bytes.
func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case int:
			b = append(b, byte(p))
		case rune:
			b = append(b, byte(p))
		case byte:
			b = append(b, p)
		case []byte:
			b = append(b, p...)
		case string:
			b = append(b, p...)
		default:
			panic(p)
		}
	}
	return b
}

// dispatchHead opens an entry loop over three blocks (PC_B 0, 1, 2 go to
// basic blocks 0, 1, 2) after the stack-pointer cache: basic block 0's
// code follows it.
func dispatchHead() []byte {
	return cat(0, 0x23, 0, 0x21, 1, // no locals; global.get 0; local.set 1
		loop, e, block, e, block, e, block, e,
		opLocalGet, 0, opBrTable, 3, 0, 1, 2, 2, end)
}

// threadedHead is dispatchHead as Thread leaves it: the entry loop's
// opcode op (loop as Go writes it, block once nothing branches back to
// it) and a call's branch to basic block 0 ahead of the br_table.
func threadedHead(op byte) []byte {
	return cat(0, 0x23, 0, 0x21, 1,
		op, e, block, e, block, e, block, e,
		opLocalGet, 0, opI32Eqz, opBrIf, 0,
		opLocalGet, 0, opBrTable, 3, 0, 1, 2, 2, end)
}

// module wraps one function body in a module: the function takes PC_B (an
// i32) and returns an i32, as Go's do.
func module(body []byte) []byte {
	code := appendUleb(appendUleb(nil, 1), uint64(len(body)))
	code = append(code, body...)
	m := cat(header,
		sectionType, 6, 1, 0x60, 1, 0x7f, 1, 0x7f, // one type: (i32) -> i32
		sectionFunction, 2, 1, 0, // one function, of type 0
		sectionCode)
	m = appendUleb(m, uint64(len(code)))
	return append(m, code...)
}

// TestThreadSteps rewrites hand-written bodies, one kind of jump each: in
// basic block J, with n explicit blocks open, the loop is at depth
// n + 3 - 1 - J.
func TestThreadSteps(t *testing.T) {
	tail := cat(end, end, end, 0x00, end) // end blocks 1 and 2, the loop; unreachable; end
	for _, tc := range []struct {
		name string
		code []byte // basic block 0's code
		want []byte
		st   Stats
	}{
		{"forward to the next block", jump(1, 2), []byte{opBr, 0}, Stats{Forward: 1, Unlooped: 1}},
		{"forward two blocks", jump(2, 2), []byte{opBr, 1}, Stats{Forward: 1, Unlooped: 1}},
		{"pc past the table goes to the default", jump(9, 2), []byte{opBr, 1}, Stats{Forward: 1, Unlooped: 1}},
		{"backward stays, and so does the loop", cat(jump(0, 2), jump(1, 2)), cat(jump(0, 2), opBr, 0), Stats{Forward: 1, Backward: 1}},
		{"conditional folds into br_if",
			cat(opI32Const, 1, opIf, e, jump(2, 3), end),
			[]byte{opI32Const, 1, opBrIf, 1}, Stats{Forward: 1, Folded: 1, Unlooped: 1}},
		{"inside a block with more in it",
			cat(block, e, opI32Const, 1, opIf, e, 0x01, jump(1, 4), end, end),
			cat(block, e, opI32Const, 1, opIf, e, 0x01, opBr, 2, end, end), Stats{Forward: 1, Unlooped: 1}},
		{"a br to another label is not a jump", cat(opI32Const, 1, opLocalSet, 0, opBr, 1), cat(opI32Const, 1, opLocalSet, 0, opBr, 1), Stats{Unlooped: 1}},
		{"another local is not PC_B, but its br keeps the loop", cat(opI32Const, 1, opLocalSet, 2, opBr, 2), cat(opI32Const, 1, opLocalSet, 2, opBr, 2), Stats{}},
		{"a br_table to the loop keeps it", cat(opI32Const, 0, opBrTable, 1, 0, 2), cat(opI32Const, 0, opBrTable, 1, 0, 2), Stats{}},
		{"a br_if to the loop keeps it", cat(opI32Const, 0, opBrIf, 2), cat(opI32Const, 0, opBrIf, 2), Stats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, st, err := Thread(module(cat(dispatchHead(), tc.code, tail)))
			if err != nil {
				t.Fatal(err)
			}
			tc.st.Functions, tc.st.Loops = 1, 1
			if st != tc.st {
				t.Errorf("stats %+v, want %+v", st, tc.st)
			}
			op := byte(loop)
			if tc.st.Unlooped > 0 {
				op = block
			}
			if want := module(cat(threadedHead(op), tc.want, tail)); !bytes.Equal(got, want) {
				t.Errorf("got  %x\nwant %x", got, want)
			}
		})
	}
}

// TestThreadLaterBlock: a jump from basic block 1 sees one dispatch block
// fewer around it.
func TestThreadLaterBlock(t *testing.T) {
	in := cat(dispatchHead(), end, jump(2, 1), jump(0, 1), end, end, 0x00, end)
	want := cat(threadedHead(loop), end, opBr, 0, jump(0, 1), end, end, 0x00, end)
	got, st, err := Thread(module(in))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, module(want)) || st.Forward != 1 || st.Backward != 1 {
		t.Errorf("got %x (%+v)\nwant %x", got, st, module(want))
	}
}

// TestThreadLeavesOthers: bodies without an entry loop, and sections
// other than code, come out as they went in.
func TestThreadLeavesOthers(t *testing.T) {
	plain := cat(0, opI32Const, 7, 0x1a, end) // i32.const 7; drop
	m := module(plain)
	custom := cat(0, 4, 3, 'a', 'b', 'c') // custom section "abc", empty
	in := cat(m[:8], custom, m[8:])
	got, st, err := Thread(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, in) || st != (Stats{Functions: 1}) {
		t.Errorf("got %x (%+v), want %x", got, st, in)
	}
}

// TestThreadErrors: input Thread cannot read is an error, never a panic.
func TestThreadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"not a module", []byte("hello"), "not a WebAssembly module"},
		{"section past the end", cat(header, sectionCode, 9, 0), "past the end"},
		{"body without a declared function", cat(header, sectionCode, 3, 1, 1, end), "only 0 functions declared"},
		{"function of a type not declared", cat(header, sectionFunction, 2, 1, 0), "type 0 of 0"},
		{"unknown opcode", module(cat(0, 0xfd, 0, end)), "not an opcode"},
		{"body cut short", module(cat(0, opI32Const)), "unexpected end"},
		{"loop never ends", module(cat(dispatchHead(), end)), "without its end"},
		{"trailing bytes", cat(header, sectionCode, 2, 0, 0), "after the last body"},
		{"not a function type", cat(header, sectionType, 2, 1, 0x50), "not a function type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Thread(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzThread: no input makes Thread panic, and threading what Thread
// wrote changes nothing more.
func FuzzThread(f *testing.F) {
	f.Add(module(cat(dispatchHead(), jump(1, 2), opI32Const, 1, opIf, e, jump(2, 3), end, end, jump(0, 1), end, end, 0x00, end)))
	f.Add(module(cat(0, opI32Const, 7, 0x1a, end)))
	f.Add(namedModule([]string{"f", "runtime.sigpanic"},
		cat(spHead, ld(8), drop, block, e, opI32Const, 1, opIf, e, call(1), end, ld(8), drop, end, ld(8), drop, opI32Const, 0, end),
		cat(spHead, opI32Const, 0, end)))
	f.Add(namedModule(nil, cat(spHead, addr(8), manySlots(func(k byte) []byte { return cat(addr(k), 0x29, 3, 0) }),
		c64(3), 0x50, 0xad, 0x50, 0xad, 0x7c, st(0), opI32Const, 0, end)))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, _, err := Thread(in)
		if err != nil {
			return
		}
		again, st, err := Thread(out)
		if err != nil {
			t.Fatalf("threaded module does not read back: %v", err)
		}
		if !bytes.Equal(again, out) || st.Forward != 0 || st.Copies != 0 || st.Fills != 0 || st.Forwarded != 0 ||
			st.Offsets != 0 || st.Narrowed != 0 {
			t.Fatalf("second pass changed the module (%+v)", st)
		}
	})
}

// TestThreadBulk: a memory.copy or memory.fill (of zeros) of a constant
// size up to maxInline becomes loads and stores through two new locals,
// after the function's parameter (PC_B, local 0).
func TestThreadBulk(t *testing.T) {
	get := func(i byte) []byte { return []byte{opLocalGet, i} }
	copyOp, fillOp := []byte{0xfc, 10, 0, 0}, []byte{0xfc, 11, 0}
	move := func(load, store, off byte) []byte { return cat(get(1), get(2), load, 0, off, store, 0, off) }
	zero := func(c, store, off byte) []byte { return cat(get(1), c, 0, store, 0, off) }
	newLocals := []byte{1, 2, 0x7f}
	for _, tc := range []struct {
		name string
		code []byte
		want []byte
		st   Stats
	}{
		{"copy of 23 bytes",
			cat(0, get(0), get(0), opI32Const, 23, copyOp, end),
			cat(newLocals, get(0), get(0), opLocalSet, 2, opLocalSet, 1,
				move(0x29, 0x37, 0), move(0x29, 0x37, 8), move(0x28, 0x36, 16), move(0x2f, 0x3b, 20), move(0x2d, 0x3a, 22), end),
			Stats{Copies: 1}},
		{"fill of 40 zero bytes",
			cat(0, get(0), opI32Const, 0, opI32Const, 40, fillOp, end),
			cat(newLocals, get(0), opLocalSet, 1,
				zero(0x42, 0x37, 0), zero(0x42, 0x37, 8), zero(0x42, 0x37, 16), zero(0x42, 0x37, 24), zero(0x42, 0x37, 32), end),
			Stats{Fills: 1}},
		{"copy larger than maxInline stays",
			cat(0, get(0), get(0), opI32Const, 0x81, 1, copyOp, end), // 129
			cat(0, get(0), get(0), opI32Const, 0x81, 1, copyOp, end), Stats{}},
		{"copy of a size computed at run time stays",
			cat(0, get(0), get(0), get(0), copyOp, end), cat(0, get(0), get(0), get(0), copyOp, end), Stats{}},
		{"fill of ones stays",
			cat(0, get(0), opI32Const, 1, opI32Const, 40, fillOp, end),
			cat(0, get(0), opI32Const, 1, opI32Const, 40, fillOp, end), Stats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, st, err := Thread(module(tc.code))
			if err != nil {
				t.Fatal(err)
			}
			tc.st.Functions = 1
			if st != tc.st {
				t.Errorf("stats %+v, want %+v", st, tc.st)
			}
			if want := module(tc.want); !bytes.Equal(got, want) {
				t.Errorf("got  %x\nwant %x", got, want)
			}
		})
	}
}
