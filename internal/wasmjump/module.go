package wasmjump

import (
	"bytes"
	"fmt"
)

// header is the magic number and version 1 that begin every module.
const header = "\x00asm\x01\x00\x00\x00"

// Thread returns module with the forward jumps of its functions' entry
// loops made direct branches, the loops nothing branches back to made
// blocks, a call's way to its first block ahead of the br_table, small
// constant-size copies and fills written out, and loads of a frame slot
// whose value a local already holds made reads of that local (see the
// package comment), and what it did.
// module is not modified. An error means module is not one Thread can
// read; the caller should then keep it as it is.
func Thread(module []byte) ([]byte, Stats, error) {
	var st Stats
	if !bytes.HasPrefix(module, []byte(header)) {
		return nil, st, fmt.Errorf("wasmjump: not a WebAssembly module (version 1)")
	}
	var sg sigs
	if err := sg.scan(module); err != nil {
		return nil, st, err
	}
	fi := sg.info()
	out := make([]byte, 0, len(module))
	out = append(out, header...)
	err := sections(module, func(id byte, start, end int, content []byte) error {
		if id != sectionCode {
			out = append(out, module[start:end]...)
			return nil
		}
		code, err := codeSection(content, fi, &st)
		if err != nil {
			return fmt.Errorf("wasmjump: code section at byte %d: %w", start, err)
		}
		out = append(out, id)
		out = appendUleb(out, uint64(len(code)))
		out = append(out, code...)
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// codeSection rewrites the bodies of a code section's content.
func codeSection(content []byte, fi *funcInfo, st *Stats) ([]byte, error) {
	r := &reader{b: content}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	out := appendUleb(make([]byte, 0, len(content)), uint64(n))
	var scratch []inst
	for i := range n {
		size, err := r.u32()
		if err != nil {
			return nil, fmt.Errorf("body %d: %w", i, err)
		}
		if int(size) > len(content)-r.pos {
			return nil, fmt.Errorf("body %d: size %d past the end", i, size)
		}
		b := content[r.pos : r.pos+int(size)]
		r.pos += int(size)
		st.Functions++
		idx := fi.imports + int(i) // in the function index space
		if idx >= len(fi.params) {
			return nil, fmt.Errorf("body %d: only %d functions declared", i, len(fi.params)-fi.imports)
		}
		var nb []byte
		nb, scratch, err = body(b, fi.params[idx], int(i), fi, scratch, st)
		if err != nil {
			return nil, fmt.Errorf("body %d: %w", i, err)
		}
		out = appendUleb(out, uint64(len(nb)))
		out = append(out, nb...)
	}
	if r.pos != len(content) {
		return nil, fmt.Errorf("%d bytes after the last body", len(content)-r.pos)
	}
	return out, nil
}
