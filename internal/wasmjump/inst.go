package wasmjump

import "fmt"

// Opcodes that Thread reads or writes.
const (
	opBlock     = 0x02
	opLoop      = 0x03
	opIf        = 0x04
	opElse      = 0x05
	opEnd       = 0x0b
	opBr        = 0x0c
	opBrIf      = 0x0d
	opBrTable   = 0x0e
	opLocalGet  = 0x20
	opLocalSet  = 0x21
	opGlobalGet = 0x23
	opI32Const  = 0x41
	opI32Eqz    = 0x45
	blockEmpty  = 0x40 // the empty block type, the only one Go writes
)

// inst is one decoded instruction: its opcode, where its bytes are in the
// function body, and the one immediate the passes need (a branch depth, a
// local's, global's or function's index, an i32 or i64 constant, a block
// type, a load's or store's offset, call_indirect's type, the 0xfc
// sub-opcode). labels holds a br_table's targets, the default last.
type inst struct {
	op         byte
	start, end int
	imm        int64
	labels     []uint32
}

// decode reads the instructions of a function body from r up to the
// body's end.
func decode(r *reader, out []inst) ([]inst, error) {
	for r.pos < len(r.b) {
		in := inst{start: r.pos}
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		in.op = op
		if err := immediates(r, &in); err != nil {
			return nil, fmt.Errorf("opcode 0x%02x at byte %d: %w", op, in.start, err)
		}
		in.end = r.pos
		out = append(out, in)
	}
	return out, nil
}

// immediates reads in's immediates, keeping those Thread needs.
func immediates(r *reader, in *inst) error {
	op := in.op
	switch {
	case op == opBlock || op == opLoop || op == opIf:
		t, err := r.byte()
		in.imm = int64(t)
		return err
	case op == opBr || op == opBrIf || op == opLocalGet || op == opLocalSet:
		v, err := r.u32()
		in.imm = int64(v)
		return err
	case op == opBrTable:
		return brTable(r, in)
	case op == opI32Const:
		v, err := r.sleb(32)
		in.imm = v
		return err
	case op == 0x42: // i64.const
		v, err := r.sleb(64)
		in.imm = v
		return err
	case op == 0x43: // f32.const
		return r.skip(4)
	case op == 0x44: // f64.const
		return r.skip(8)
	case op == 0x11: // call_indirect: type, table
		v, err := r.u32()
		in.imm = int64(v)
		if err != nil {
			return err
		}
		return u32s(r, 1)
	case op >= 0x28 && op <= 0x3e: // loads and stores: align, offset
		if err := u32s(r, 1); err != nil {
			return err
		}
		v, err := r.u32()
		in.imm = int64(v)
		return err
	case op == 0x10 || (op >= 0x22 && op <= 0x26) || op == 0x3f || op == 0x40:
		// call, local.tee, global.get/set, table.get/set, memory.size/grow
		v, err := r.u32()
		in.imm = int64(v)
		return err
	case op <= 0x01 || op == opElse || op == opEnd || op == 0x0f || op == 0x1a || op == 0x1b || (op >= 0x45 && op <= 0xc4):
		return nil // no immediates
	case op == 0xfc:
		sub, err := prefixFC(r)
		in.imm = int64(sub)
		return err
	}
	return fmt.Errorf("not an opcode the Go toolchain writes")
}

// prefixFC reads the sub-opcode and immediates of the 0xfc instructions
// (saturating truncation, bulk memory).
func prefixFC(r *reader) (uint32, error) {
	sub, err := r.u32()
	if err != nil {
		return 0, err
	}
	switch {
	case sub <= 7:
		return sub, nil
	case sub == 9 || sub == 11 || sub == 13 || (sub >= 15 && sub <= 17):
		return sub, u32s(r, 1)
	case sub == 8 || sub == 10 || sub == 12 || sub == 14:
		return sub, u32s(r, 2)
	}
	return 0, fmt.Errorf("0xfc %d: not an instruction the Go toolchain writes", sub)
}

func brTable(r *reader, in *inst) error {
	n, err := r.u32()
	if err != nil {
		return err
	}
	if int(n) >= len(r.b)-r.pos { // every label takes at least one byte
		return errShort
	}
	in.labels = make([]uint32, n+1)
	for i := range in.labels {
		if in.labels[i], err = r.u32(); err != nil {
			return err
		}
	}
	return nil
}

func u32s(r *reader, n int) error {
	for range n {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	return nil
}

// isLoad reports whether op is a load (i32.load to i64.load32_u): it pops
// an address and pushes a value.
func isLoad(op byte) bool { return op >= 0x28 && op <= 0x35 }

// isStore reports whether op is a store (i32.store to i64.store32): it
// pops an address and a value.
func isStore(op byte) bool { return op >= 0x36 && op <= 0x3e }

// isUnary reports whether op pops one number and pushes one: the tests
// for zero, the unary arithmetic and the conversions.
func isUnary(op byte) bool {
	return op == 0x45 || op == 0x50 || op >= 0x67 && op <= 0x69 || op >= 0x79 && op <= 0x7b ||
		op >= 0x8b && op <= 0x91 || op >= 0x99 && op <= 0x9f || op >= 0xa7 && op <= 0xc4
}

// isBinary reports whether op pops two numbers and pushes one: the
// comparisons and the binary arithmetic.
func isBinary(op byte) bool {
	return op >= 0x46 && op <= 0x4f || op >= 0x51 && op <= 0x66 || op >= 0x6a && op <= 0x78 ||
		op >= 0x7c && op <= 0x8a || op >= 0x92 && op <= 0x98 || op >= 0xa0 && op <= 0xa6
}
