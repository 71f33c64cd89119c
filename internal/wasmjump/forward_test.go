package wasmjump

import (
	"bytes"
	"testing"
)

// Shorthands for the frame pass's tests: SP is local 1 (an i32), as Go's
// back end caches it; new i64 locals follow it.
func get(i byte) []byte   { return []byte{opLocalGet, i} }
func tee(i byte) []byte   { return []byte{0x22, i} }
func ld(off byte) []byte  { return []byte{opLocalGet, 1, 0x29, 3, off} }  // i64.load [SP+off]
func st(off byte) []byte  { return []byte{0x37, 3, off} }                 // i64.store off (address and value pushed before)
func st4(off byte) []byte { return []byte{0x36, 2, off} }                 // i32.store off
func c64(v byte) []byte   { return []byte{0x42, v} }                      // i64.const v (v < 64)
func heap() []byte        { return cat(opI32Const, 100, c64(1), st(0)) }  // a store through an address not in the frame
func call(f byte) []byte  { return []byte{opI32Const, 0, 0x10, f, 0x1a} } // call f, result dropped
func spAddr(off byte) []byte {
	return cat(get(1), 0xad, c64(off), 0x7c) // SP+off as an i64 (i64.extend_i32_u, i64.add)
}

const drop = 0x1a

// spHead caches SP in local 1, as every Go function starts.
var spHead = []byte{0x23, 0, opLocalSet, 1}

// prologue moves SP down by a frame of 64 bytes: arguments at SP+72.
func prologue() []byte { return cat(get(1), sleb(opI32Const, 64), 0x6b, tee(1), 0x24, 0) }

// sleb writes op and v as a signed LEB128 immediate (a constant).
func sleb(op byte, v int64) []byte {
	out := []byte{op}
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

// namedModule is a module of functions of Go's type (i32) -> i32 with
// the given bodies (code after the local declarations, which are one i32:
// SP's cache) and names.
func namedModule(names []string, code ...[]byte) []byte {
	bodies := make([][]byte, len(code))
	for i, c := range code {
		bodies[i] = cat(1, 1, 0x7f, c)
	}
	return namedBodies(names, bodies...)
}

// namedBodies is namedModule with whole bodies (local declarations and
// code).
func namedBodies(names []string, bodies ...[]byte) []byte {
	code := bodies
	var sec []byte
	sec = appendUleb(sec, uint64(len(code)))
	for _, b := range code {
		sec = append(appendUleb(sec, uint64(len(b))), b...)
	}
	funcs := appendUleb(nil, uint64(len(code)))
	for range code {
		funcs = append(funcs, 0)
	}
	m := cat(header, sectionType, 6, 1, 0x60, 1, 0x7f, 1, 0x7f)
	m = append(appendUleb(append(m, sectionFunction), uint64(len(funcs))), funcs...)
	m = append(appendUleb(append(m, sectionCode), uint64(len(sec))), sec...)
	if len(names) > 0 {
		sub := appendUleb(nil, uint64(len(names)))
		for i, n := range names {
			sub = appendUleb(sub, uint64(i))
			sub = append(appendUleb(sub, uint64(len(n))), n...)
		}
		c := cat(4, "name", 1)
		c = append(appendUleb(c, uint64(len(sub))), sub...)
		m = append(appendUleb(append(m, sectionCustom), uint64(len(c))), c...)
	}
	return m
}

// TestForwardSteps runs the frame pass over hand-written bodies, one rule
// each: the first function's code as the pass leaves it, and how many
// loads it forwarded. Function 1 is the runtime's sigpanic where named,
// and returns at once.
func TestForwardSteps(t *testing.T) {
	ret := cat(opI32Const, 0, end)
	sigpanic := cat(spHead, ret)
	for _, tc := range []struct {
		name      string
		names     []string
		code      []byte
		want      []byte // the body after the pass; nil: unchanged
		forwarded int    // loads made reads of a local
	}{
		{"a second load reads the first's copy", nil,
			cat(spHead, ld(8), drop, ld(8), drop, ret),
			cat(spHead, ld(8), tee(2), drop, get(2), drop, ret), 1},
		{"a load reads what an 8-byte store wrote", nil,
			cat(spHead, get(1), c64(5), st(16), ld(16), drop, ret),
			cat(spHead, get(1), c64(5), tee(2), st(16), get(2), drop, ret), 1},
		{"one local a slot", nil,
			cat(spHead, ld(8), drop, ld(16), drop, ld(16), drop, ld(8), drop, ret),
			cat(spHead, ld(8), tee(2), drop, ld(16), tee(3), drop, get(3), drop, get(2), drop, ret), 2},
		{"a store that overlaps the slot", nil,
			cat(spHead, ld(8), drop, get(1), opI32Const, 1, st4(12), ld(8), drop, ret), nil, 0},
		{"a store next to the slot", nil,
			cat(spHead, ld(8), drop, get(1), opI32Const, 1, st4(16), ld(8), drop, ret),
			cat(spHead, ld(8), tee(2), drop, get(1), opI32Const, 1, st4(16), get(2), drop, ret), 1},
		{"a store through another address, the frame's never out", nil,
			cat(spHead, ld(8), drop, heap(), ld(8), drop, ret),
			cat(spHead, ld(8), tee(2), drop, heap(), get(2), drop, ret), 1},
		{"a call", nil,
			cat(spHead, ld(8), drop, call(0), ld(8), drop, ret), nil, 0},
		{"SP restored after a call", nil,
			cat(spHead, ld(8), drop, 0x23, 0, opLocalSet, 1, ld(8), drop, ret), nil, 0},
		{"known on both paths to a block's end", nil,
			cat(spHead, block, e, ld(8), drop, opI32Const, 1, opBrIf, 0, end, ld(8), drop, ret),
			cat(spHead, block, e, ld(8), tee(2), drop, opI32Const, 1, opBrIf, 0, end, get(2), drop, ret), 1},
		{"known on one path only", nil,
			cat(spHead, block, e, opI32Const, 1, opBrIf, 0, ld(8), drop, end, ld(8), drop, ret), nil, 0},
		{"a loop's head", nil,
			cat(spHead, ld(8), drop, loop, e, ld(8), drop, end, ret), nil, 0},
		{"an if's body: what is known before it", nil,
			cat(spHead, ld(8), drop, opI32Const, 1, opIf, e, ld(8), drop, end, ret),
			cat(spHead, ld(8), tee(2), drop, opI32Const, 1, opIf, e, get(2), drop, end, ret), 1},
		{"after an if whose body calls sigpanic", []string{"f", "runtime.sigpanic"},
			cat(spHead, ld(8), drop, opI32Const, 1, opIf, e, call(1), end, ld(8), drop, ret),
			cat(spHead, ld(8), tee(2), drop, opI32Const, 1, opIf, e, call(1), end, get(2), drop, ret), 1},
		{"after an if whose body calls a function that returns", []string{"f", "main.f"},
			cat(spHead, ld(8), drop, opI32Const, 1, opIf, e, call(1), end, ld(8), drop, ret), nil, 0},
		{"the frame's address out, no prologue: other stores change any slot", nil,
			cat(spHead, opI32Const, 32, spAddr(16), st(0), ld(8), drop, heap(), ld(8), drop, ld(8), drop, ret),
			cat(spHead, opI32Const, 32, spAddr(16), st(0), ld(8), drop, heap(), ld(8), tee(2), drop, get(2), drop, ret), 1},
		{"a local's address out: other stores change the frame's own slots, not the arguments", nil,
			cat(spHead, prologue(), opI32Const, 32, spAddr(16), st(0), ld(80), drop, ld(8), drop, heap(), ld(80), drop, ld(8), drop, ret),
			cat(spHead, prologue(), opI32Const, 32, spAddr(16), st(0), ld(80), tee(2), drop, ld(8), drop, heap(), get(2), drop, ld(8), drop, ret), 1},
		{"an argument's address out", nil,
			cat(spHead, prologue(), opI32Const, 32, spAddr(80), st(0), ld(80), drop, heap(), ld(80), drop, ret), nil, 0},
		{"the frame's address out in the runtime", []string{"runtime.f"},
			cat(spHead, opI32Const, 32, spAddr(16), st(0), ld(8), drop, ld(8), drop, ret), nil, 0},
		{"an instruction the pass does not know", nil,
			cat(spHead, ld(8), drop, opI32Const, 0, 0x25, 0, drop, ld(8), drop, ret), nil, 0}, // table.get
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := namedModule(tc.names, tc.code, sigpanic)
			got, st, err := Thread(in)
			if err != nil {
				t.Fatal(err)
			}
			want := in
			if tc.want != nil { // one new i64 local a slot: locals 2 and 3 at most here
				n := byte(1 + bytes.Count(tc.want, tee(3)))
				want = namedBodies(tc.names, cat(2, 1, 0x7f, n, 0x7e, tc.want), cat(1, 1, 0x7f, sigpanic))
			}
			if st.Forwarded != tc.forwarded {
				t.Errorf("forwarded %d, want %d", st.Forwarded, tc.forwarded)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %x\nwant %x", got, want)
			}
			again, st2, err := Thread(got)
			if err != nil || !bytes.Equal(again, got) || st2.Forwarded != 0 {
				t.Errorf("a second pass changed the module (%+v, %v)", st2, err)
			}
		})
	}
}
