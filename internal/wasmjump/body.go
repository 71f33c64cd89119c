package wasmjump

import (
	"cmp"
	"fmt"
	"slices"
)

// maxLocals is the most locals a body may have after Thread adds two (V8
// and the other engines refuse more than 50,000).
const maxLocals = 50000

// body rewrites one function body (locals and code, without its size);
// params is the number of the function's parameters.
func body(b []byte, params, idx int, fi *funcInfo, scratch []inst, st *Stats) ([]byte, []inst, error) {
	r := &reader{b: b}
	groups, countEnd, locals, err := readLocals(r)
	if err != nil {
		return nil, scratch, fmt.Errorf("locals: %w", err)
	}
	groupsEnd := r.pos
	ins, err := decode(r, scratch[:0])
	if err != nil {
		return nil, ins, err
	}
	var edits []edit
	if d, ok := findDispatch(ins); ok {
		st.Loops++
		if edits, err = plan(ins, d, st); err != nil {
			return nil, ins, err
		}
	}
	var bulks []bulk
	if n := uint64(params) + locals + 2; n <= maxLocals {
		bulks = findBulk(ins, nil)
	}
	if len(edits) == 0 && len(bulks) == 0 {
		return forwardBody(b, params, idx, fi, ins, st)
	}
	dst := uint32(uint64(params) + locals)
	for _, bk := range bulks {
		if bk.fill {
			st.Fills++
		} else {
			st.Copies++
		}
		edits = append(edits, edit{from: bk.from, to: bk.to, b: bk.expand(nil, dst, dst+1)})
	}
	var added uint64
	if len(bulks) > 0 { // one more group of locals: two i32
		added = 2
	}
	out := rewrite(b, ins, edits, locs{groups, countEnd, groupsEnd}, added, 0x7f)
	r = &reader{b: out}
	if _, _, _, err := readLocals(r); err != nil {
		return nil, ins, err
	}
	if ins, err = decode(r, ins[:0]); err != nil {
		return nil, ins, err
	}
	return forwardBody(out, params, idx, fi, ins, st)
}

// forwardBody folds the frame's addresses (fold.go), then applies the
// frame pass (forward.go) and ends the panics' paths (exits.go) in the
// idx-th body b, whose instructions are ins.
func forwardBody(b []byte, params, idx int, fi *funcInfo, ins []inst, st *Stats) ([]byte, []inst, error) {
	r := &reader{b: b}
	groups, countEnd, locals, err := readLocals(r)
	if err != nil {
		return nil, ins, err
	}
	groupsEnd := r.pos
	if b, ins, err = foldBody(b, ins, locs{groups, countEnd, groupsEnd}, st); err != nil {
		return nil, ins, err
	}
	edits, n, reads := forward(b, ins, fi, idx, uint32(uint64(params)+locals))
	if uint64(params)+locals+uint64(n) > maxLocals {
		edits, n, reads = nil, 0, 0
	}
	var ex []edit
	if len(ins) > 1 {
		ex = exits(ins, fi, ins[1].imm)
	}
	if len(edits) == 0 && len(ex) == 0 {
		return b, ins, nil
	}
	st.Forwarded += reads
	st.Exits += len(ex)
	edits = append(edits, ex...)
	return rewrite(b, ins, edits, locs{groups, countEnd, groupsEnd}, uint64(n), 0x7e), ins, nil // i64
}

// locs is where a body's local declarations are: the number of groups,
// where the groups begin (after their count) and end.
type locs struct {
	groups              uint64
	countEnd, groupsEnd int
}

// rewrite returns body b, whose instructions are ins and local
// declarations l, with edits applied (in order of their first
// instruction) and, if n > 0, one more group of n locals of type t.
func rewrite(b []byte, ins []inst, edits []edit, l locs, n uint64, t byte) []byte {
	slices.SortFunc(edits, func(x, y edit) int { return cmp.Compare(x.from, y.from) })
	out := make([]byte, 0, len(b)+len(b)/8)
	if n > 0 {
		out = appendUleb(out, l.groups+1)
		out = append(out, b[l.countEnd:l.groupsEnd]...)
		out = appendUleb(out, n)
		out = append(out, t)
	} else {
		out = append(out, b[:l.groupsEnd]...)
	}
	last := l.groupsEnd
	for _, e := range edits {
		out = append(out, b[last:ins[e.from].start]...)
		out = append(out, e.b...)
		last = ins[e.to-1].end
	}
	return append(out, b[last:]...)
}

// readLocals reads a body's local declarations: the number of groups,
// where the groups begin (after their count) and the number of locals.
func readLocals(r *reader) (groups uint64, countEnd int, locals uint64, err error) {
	n, err := r.u32()
	if err != nil {
		return 0, 0, 0, err
	}
	countEnd = r.pos
	for range n {
		c, err := r.u32()
		if err != nil {
			return 0, 0, 0, err
		}
		locals += uint64(c)
		if _, err := r.byte(); err != nil {
			return 0, 0, 0, err
		}
	}
	return uint64(n), countEnd, locals, nil
}
