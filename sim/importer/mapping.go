package importer

import (
	"fmt"
	"strings"
)

// Mapping attaches one imported call to calls of an existing experiment:
// every step of service Caller that calls service Callee receives the
// settings imported for Source (a gRPC service, or "service/method" for
// a method config; a resilience4j instance; an Envoy cluster; an Istio
// host), and Callee receives the imported service settings (outlier
// detection, balancer).
type Mapping struct {
	Source, Caller, Callee string
	// Pos says where the mapping is written, for messages:
	// "FILE:LINE:COL" in a mapping file, "--map[N]" on the command line.
	Pos string
}

// ParseMapping reads one mapping, "SOURCE=CALLER:CALLEE" (spaces around
// the separators allowed); pos names where it is written.
func ParseMapping(spec, pos string) (Mapping, error) {
	src, target, ok := strings.Cut(spec, "=")
	caller, callee, ok2 := strings.Cut(target, ":")
	m := Mapping{strings.TrimSpace(src), strings.TrimSpace(caller), strings.TrimSpace(callee), pos}
	if !ok || !ok2 || m.Source == "" || m.Caller == "" || m.Callee == "" || strings.Contains(m.Callee, ":") {
		return m, fmt.Errorf("%s: mapping %q: want SOURCE=CALLER:CALLEE (an imported name, then the experiment's calling service and the service it calls)", pos, spec)
	}
	return m, nil
}

// ParseMappingFile reads a mapping file: one SOURCE=CALLER:CALLEE a
// line; blank lines and lines starting with # are skipped. Every bad line
// is reported, with its position.
func ParseMappingFile(file string, data []byte) ([]Mapping, error) {
	var out []Mapping
	var errs []string
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		m, err := ParseMapping(t, fmt.Sprintf("%s:%d:%d", file, i+1, col))
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, m)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// name is an imported call's name in mappings.
func (c *callOut) name() string {
	if c.operation != "" {
		return c.service + "/" + c.operation
	}
	return c.service
}
