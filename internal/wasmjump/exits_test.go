package wasmjump

import (
	"bytes"
	"testing"
)

// TestExits: a call to one of the runtime's panics followed by Go's
// unwinding test, a branch to the outermost block, becomes call; return.
func TestExits(t *testing.T) {
	unwind := cat(0x23, 0, opLocalSet, 1) // global.get SP; local.set SP'
	// check is a nil check around a call to f, inside depth constructs
	// within the outermost block.
	check := func(f, depth byte) []byte {
		return cat(opI32Const, 1, opIf, e, opI32Const, 0, 0x10, f, unwind, opBrIf, depth, end)
	}
	ended := func(f byte) []byte { return cat(opI32Const, 1, opIf, e, opI32Const, 0, 0x10, f, 0x0f, end) }
	fn := func(body []byte) []byte { // the unwinding exit around body
		return cat(spHead, block, e, body, end, opI32Const, 1, end)
	}
	ret := cat(spHead, opI32Const, 0, end)
	for _, tc := range []struct {
		name  string
		names []string
		code  []byte
		want  []byte // nil: unchanged
		exits int
	}{
		{"sigpanic, in the outermost block", []string{"f", "runtime.sigpanic"},
			fn(check(1, 1)), fn(ended(1)), 1},
		{"goPanicIndex, two blocks deeper", []string{"f", "runtime.goPanicIndex"},
			fn(cat(block, e, block, e, check(1, 3), end, end)), fn(cat(block, e, block, e, ended(1), end, end)), 1},
		{"a call that returns", []string{"f", "main.g"}, fn(check(1, 1)), nil, 0},
		{"no names", nil, fn(check(1, 1)), nil, 0},
		{"a branch to another block", []string{"f", "runtime.sigpanic"},
			fn(cat(block, e, check(1, 1), end)), nil, 0},
		{"a first block that is not the outermost", []string{"f", "runtime.sigpanic"},
			cat(spHead, block, e, check(1, 1), end, block, e, end, opI32Const, 1, end), nil, 0},
		{"not Go's unwinding exit", []string{"f", "runtime.sigpanic"},
			cat(spHead, block, e, check(1, 1), end, opI32Const, 0, end), nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := namedModule(tc.names, tc.code, ret)
			got, st, err := Thread(in)
			if err != nil {
				t.Fatal(err)
			}
			want := in
			if tc.want != nil {
				want = namedModule(tc.names, tc.want, ret)
			}
			if st.Exits != tc.exits {
				t.Errorf("exits %d, want %d", st.Exits, tc.exits)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %x\nwant %x", got, want)
			}
		})
	}
}
