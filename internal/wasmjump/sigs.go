package wasmjump

import (
	"fmt"
	"strings"
)

// Section ids Thread reads.
const (
	sectionCustom   = 0
	sectionType     = 1
	sectionImport   = 2
	sectionFunction = 3
	sectionCode     = 10
)

// sigs is what Thread knows of a module's functions before it rewrites
// their bodies: how many parameters each defined function takes (a
// function's locals are numbered after its parameters, so a body that
// gains locals needs to know where its own begin), and for the frame pass
// (forward.go) every function's parameter and result counts and which
// never return. The function section lists the defined functions only, in
// the code section's order, after the imported ones in the index space.
type sigs struct {
	typeParams, typeResults []int
	imports                 []int // the type of each imported function
	funcs                   []int // the type of each defined function, in code-section order
	names                   map[uint32]string
}

// scan reads the sections of module that sigs needs.
func (s *sigs) scan(module []byte) error {
	return sections(module, func(id byte, start, end int, content []byte) error {
		var err error
		switch id {
		case sectionType:
			err = s.readTypes(content)
		case sectionImport:
			err = s.readImports(content)
		case sectionFunction:
			err = s.readFuncs(content)
		case sectionCustom:
			s.readNames(content) // a name section that does not read names nothing
		}
		if err != nil {
			return fmt.Errorf("wasmjump: section %d at byte %d: %w", id, start, err)
		}
		return nil
	})
}

// sections calls f with each section of module (after the header): its
// id, where it starts and ends in module (id and size included) and its
// content, in order, stopping at f's first error.
func sections(module []byte, f func(id byte, start, end int, content []byte) error) error {
	r := &reader{b: module, pos: len(header)}
	for r.pos < len(module) {
		start := r.pos
		id, err := r.byte()
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return fmt.Errorf("wasmjump: section at byte %d: %w", start, err)
		}
		if int(size) > len(module)-r.pos {
			return fmt.Errorf("wasmjump: section at byte %d: size %d past the end", start, size)
		}
		content := module[r.pos : r.pos+int(size)]
		r.pos += int(size)
		if err := f(id, start, r.pos, content); err != nil {
			return err
		}
	}
	return nil
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
		s.typeParams = append(s.typeParams, int(params))
		s.typeResults = append(s.typeResults, int(results))
	}
	return nil
}

// readImports reads the types of the imported functions, skipping the
// other imports.
func (s *sigs) readImports(content []byte) error {
	r := &reader{b: content}
	n, err := r.u32()
	if err != nil {
		return err
	}
	for i := range n {
		for range 2 { // module and field names
			l, err := r.u32()
			if err == nil {
				err = r.skip(int(l))
			}
			if err != nil {
				return fmt.Errorf("import %d: %w", i, err)
			}
		}
		kind, err := r.byte()
		if err != nil {
			return fmt.Errorf("import %d: %w", i, err)
		}
		switch kind {
		case 0: // function
			t, err := r.u32()
			if err != nil {
				return fmt.Errorf("import %d: %w", i, err)
			}
			if int(t) >= len(s.typeParams) {
				return fmt.Errorf("import %d: type %d of %d", i, t, len(s.typeParams))
			}
			s.imports = append(s.imports, int(t))
		case 1: // table: element type, limits
			if _, err := r.byte(); err != nil {
				return fmt.Errorf("import %d: %w", i, err)
			}
			err = skipLimits(r)
		case 2: // memory: limits
			err = skipLimits(r)
		case 3: // global: value type, mutability
			err = r.skip(2)
		default:
			err = fmt.Errorf("kind %d", kind)
		}
		if err != nil {
			return fmt.Errorf("import %d: %w", i, err)
		}
	}
	return nil
}

func skipLimits(r *reader) error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if _, err := r.u32(); err != nil {
		return err
	}
	if flags&1 != 0 {
		_, err = r.u32()
	}
	return err
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
		if int(t) >= len(s.typeParams) {
			return fmt.Errorf("function %d: type %d of %d", i, t, len(s.typeParams))
		}
		s.funcs = append(s.funcs, int(t))
	}
	return nil
}

// readNames reads the function names of a custom section called "name"
// (subsection 1); any other custom section, or one it cannot read, is
// ignored.
func (s *sigs) readNames(content []byte) {
	r := &reader{b: content}
	l, err := r.u32()
	if err != nil || int(l) > len(content)-r.pos || string(content[r.pos:r.pos+int(l)]) != "name" {
		return
	}
	r.pos += int(l)
	for r.pos < len(content) {
		id, err := r.byte()
		if err != nil {
			return
		}
		size, err := r.u32()
		if err != nil || int(size) > len(content)-r.pos {
			return
		}
		if id != 1 {
			r.pos += int(size)
			continue
		}
		sub := &reader{b: content[r.pos : r.pos+int(size)]}
		n, err := sub.u32()
		if err != nil {
			return
		}
		names := map[uint32]string{}
		for range n {
			idx, err := sub.u32()
			if err != nil {
				return
			}
			l, err := sub.u32()
			if err != nil || int(l) > len(sub.b)-sub.pos {
				return
			}
			names[idx] = string(sub.b[sub.pos : sub.pos+int(l)])
			sub.pos += int(l)
		}
		s.names = names
		return
	}
}

// info returns what the frame pass needs, by function index.
func (s *sigs) info() *funcInfo {
	fi := &funcInfo{typeParams: s.typeParams, typeResults: s.typeResults, imports: len(s.imports), names: s.names}
	for _, t := range append(append([]int(nil), s.imports...), s.funcs...) {
		fi.params = append(fi.params, s.typeParams[t])
		fi.results = append(fi.results, s.typeResults[t])
	}
	fi.noReturn = make([]bool, len(fi.params))
	for idx, name := range s.names {
		if int(idx) < len(fi.noReturn) && noReturn(name) {
			fi.noReturn[idx] = true
		}
	}
	return fi
}

// noReturn reports whether the Go runtime's function name never returns
// to its caller: the panics the back end calls for a nil dereference, an
// index or slice out of range, a division by zero, a shift, a failed type
// assertion; panic itself; and a fatal error.
func noReturn(name string) bool {
	switch name {
	case "runtime.sigpanic", "runtime.gopanic", "runtime.panicdivide", "runtime.panicshift",
		"runtime.panicdottypeE", "runtime.panicdottypeI", "runtime.panicnildottype",
		"runtime.throw", "runtime.fatal":
		return true
	}
	return strings.HasPrefix(name, "runtime.goPanic")
}
