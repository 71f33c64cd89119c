package wasmjump

import (
	"errors"
	"fmt"
)

// errShort reports input that ends inside a value.
var errShort = errors.New("unexpected end of input")

// reader reads LEB128 values and bytes from b, keeping its place in pos.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errShort
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

// uleb reads an unsigned LEB128 value of at most bits bits (32 or 64).
func (r *reader) uleb(bits uint) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= bits+7 {
			return 0, fmt.Errorf("at byte %d: LEB128 value longer than %d bits", r.pos, bits)
		}
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if bits < 64 && v>>bits != 0 {
				return 0, fmt.Errorf("at byte %d: LEB128 value over %d bits", r.pos, bits)
			}
			return v, nil
		}
	}
}

// u32 reads an unsigned 32-bit LEB128 value.
func (r *reader) u32() (uint32, error) {
	v, err := r.uleb(32)
	return uint32(v), err
}

// sleb reads a signed LEB128 value of at most bits bits (32 or 64).
func (r *reader) sleb(bits uint) (int64, error) {
	var v int64
	var shift uint
	for {
		if shift >= bits+7 {
			return 0, fmt.Errorf("at byte %d: LEB128 value longer than %d bits", r.pos, bits)
		}
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, nil
		}
	}
}

// skip moves past n bytes.
func (r *reader) skip(n int) error {
	if n < 0 || n > len(r.b)-r.pos {
		return errShort
	}
	r.pos += n
	return nil
}

// appendUleb appends v as unsigned LEB128 in the fewest bytes.
func appendUleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
