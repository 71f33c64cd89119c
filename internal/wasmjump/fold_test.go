package wasmjump

import (
	"bytes"
	"testing"
)

// addr is Go's address of the frame slot at SP+k: 64-bit arithmetic
// wrapped back to an i32.
func addr(k byte) []byte { return cat(spAddr(k), 0xa7) }

// manySlots is the sum of the i64 slots at SP+16 … SP+56 (41 instructions
// as Go writes them), each read by slot.
func manySlots(slot func(k byte) []byte) []byte {
	b := slot(16)
	for k := byte(24); k <= 56; k += 8 {
		b = cat(b, slot(k), 0x7c)
	}
	return b
}

// TestFolds is a step table of fold.go's rules: which addresses are folded
// into their access's offset, which tests are narrowed, and what is left
// alone.
func TestFolds(t *testing.T) {
	body := func(code ...any) []byte { return cat(spHead, cat(code...), opI32Const, 0, end) }
	for _, tc := range []struct {
		name             string
		code, want       []byte // want nil: unchanged
		offsets, narrows int
	}{
		{"an argument's store", body(addr(8), c64(5), st(0)), body(get(1), c64(5), st(8)), 1, 0},
		{"a result's load, offset added", body(addr(16), 0x29, 3, 4, drop), body(get(1), 0x29, 3, 20, drop), 1, 0},
		{"a value loaded from another slot", body(addr(8), addr(16), 0x29, 3, 0, st(0)),
			body(get(1), get(1), 0x29, 3, 16, st(8)), 2, 0},
		{"a value computed in several steps", body(addr(24), c64(5), tee(0), c64(7), 0x7c, 0xad, 0xa7, st4(0)),
			body(get(1), c64(5), tee(0), c64(7), 0x7c, 0xad, 0xa7, st4(24)), 1, 0},
		{"a widened boolean tested", body(c64(3), 0x50, 0xad, 0x50, drop), body(c64(3), 0x50, 0x45, drop), 0, 1},
		{"a widened boolean kept", body(c64(3), 0x50, 0xad, drop), nil, 0, 0},
		{"both", body(addr(8), c64(3), 0x50, 0xad, 0x50, 0xad, st(0)),
			body(get(1), c64(3), 0x50, 0x45, 0xad, st(8)), 1, 1},
		{"a value of many slots, past the scan's length until they are folded",
			body(addr(8), manySlots(func(k byte) []byte { return cat(addr(k), 0x29, 3, 0) }), st(0)),
			body(get(1), manySlots(ld), st(8)), 7, 0},
		{"a value of many loads, which the frame pass may replace",
			body(addr(8), get(0), 0x29, 3, 0, bytes.Repeat(cat(get(0), 0x29, 3, 0, 0x7c), 11), st(0)),
			body(get(1), get(0), 0x29, 3, 0, bytes.Repeat(cat(get(0), 0x29, 3, 0, 0x7c), 11), st(8)), 1, 0},
		{"another local than SP", body(get(0), 0xad, c64(8), 0x7c, 0xa7, c64(5), st(0)), nil, 0, 0},
		{"the address stored as a value", body(opI32Const, 100, addr(8), st4(0)), nil, 0, 0},
		{"the address kept in a local", body(addr(8), opLocalSet, 0), nil, 0, 0},
		{"a call before the access", body(addr(8), opI32Const, 0, 0x10, 0, st4(0)), nil, 0, 0},
		{"control flow before the access", body(addr(8), c64(5), opI32Const, 1, opIf, e, end, st(0)), nil, 0, 0},
		{"a negative constant", body(get(1), 0xad, sleb(0x42, -8), 0x7c, 0xa7, c64(5), st(0)), nil, 0, 0},
		{"an offset past 2^32", body(addr(8), c64(5), 0x37, 3, 0xff, 0xff, 0xff, 0xff, 0x0f), nil, 0, 0},
		{"no access within the scan", body(addr(8), bytes.Repeat([]byte{0x42, 1, drop}, maxFoldScan/2), c64(5), st(0)),
			nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := namedModule(nil, tc.code)
			got, st, err := Thread(in)
			if err != nil {
				t.Fatal(err)
			}
			want := in
			if tc.want != nil {
				want = namedModule(nil, tc.want)
			}
			if st.Offsets != tc.offsets || st.Narrowed != tc.narrows {
				t.Errorf("folded %d addresses and %d tests, want %d and %d", st.Offsets, st.Narrowed, tc.offsets, tc.narrows)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %x\nwant %x", got, want)
			}
			again, _, err := Thread(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("a second pass changed the module (%v)", err)
			}
		})
	}
}
