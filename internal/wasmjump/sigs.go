package wasmjump

import "fmt"

// Section ids Thread reads.
const (
	sectionType     = 1
	sectionFunction = 3
	sectionCode     = 10
)

// sigs tells how many parameters each function the module defines takes:
// a function's locals are numbered after its parameters, so a body that
// gains locals needs to know where its own begin. (The function section
// lists the defined functions only, in the code section's order; imported
// ones have no body.)
type sigs struct {
	types []int // parameters of each function type
	funcs []int // parameters of each defined function, in code-section order
}

func (s *sigs) readTypes(content []byte) error {
	r := &reader{b: content}
	n, err := r.u32()
	if err != nil {
		return err
	}
	for i := range n {
		if c, err := r.byte(); err != nil || c != 0x60 {
			return fmt.Errorf("type %d: not a function type", i)
		}
		params, err := r.u32()
		if err == nil {
			err = r.skip(int(params))
		}
		var results uint32
		if err == nil {
			results, err = r.u32()
		}
		if err == nil {
			err = r.skip(int(results))
		}
		if err != nil {
			return fmt.Errorf("type %d: %w", i, err)
		}
		s.types = append(s.types, int(params))
	}
	return nil
}

func (s *sigs) readFuncs(content []byte) error {
	r := &reader{b: content}
	n, err := r.u32()
	if err != nil {
		return err
	}
	for i := range n {
		t, err := r.u32()
		if err != nil {
			return fmt.Errorf("function %d: %w", i, err)
		}
		if int(t) >= len(s.types) {
			return fmt.Errorf("function %d: type %d of %d", i, t, len(s.types))
		}
		s.funcs = append(s.funcs, s.types[t])
	}
	return nil
}

// params returns the number of parameters of the i-th body of the code
// section.
func (s *sigs) params(i int) (int, error) {
	if i >= len(s.funcs) {
		return 0, fmt.Errorf("body %d: only %d functions declared", i, len(s.funcs))
	}
	return s.funcs[i], nil
}
