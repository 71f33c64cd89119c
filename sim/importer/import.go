package importer

import (
	"fmt"
	"sort"
)

// Kinds lists the source kinds Import reads.
func Kinds() []string { return []string{"envoy", "grpc", "istio", "resilience4j"} }

// Source is one input file.
type Source struct {
	Name string // the file name used in comments and messages
	Data []byte
}

// Result is an import's outcome.
type Result struct {
	// TOML is the generated experiment file.
	TOML string
	// Warnings list every source field not modelled, and every mapping
	// that is approximate, in source order.
	Warnings []Diag

	sk *skeleton // the calls, for Merge
}

// Import converts the sources of the given kind into an experiment. An
// unsupported or invalid value is an error of type Errors, listing every
// one with its position; nothing is generated then.
func Import(kind string, sources []Source) (*Result, error) {
	if kind != "grpc" && kind != "resilience4j" && kind != "envoy" && kind != "istio" {
		return nil, fmt.Errorf("import: unknown kind %q (known: %v)", kind, Kinds())
	}
	sk := &skeleton{kind: kind}
	var warns []Diag
	var errs Errors
	for _, s := range sources {
		if kind == "istio" {
			w, e, err := importIstio(sk, s)
			if err != nil {
				return nil, err
			}
			warns, errs = append(warns, w...), append(errs, e...)
			continue
		}
		root, err := parseDoc(s.Name, s.Data)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		sk.files = append(sk.files, s.Name)
		if kind == "grpc" {
			g := &grpcReader{file: s.Name, sk: sk}
			g.serviceConfig(root)
			warns, errs = append(warns, g.warns...), append(errs, g.errs...)
			continue
		}
		if kind == "envoy" {
			g := &envoyReader{file: s.Name, sk: sk, calls: map[string]int{}}
			g.document(root)
			warns, errs = append(warns, g.warns...), append(errs, g.errs...)
			continue
		}
		g := &r4jReader{file: s.Name, sk: sk, calls: map[string]int{}}
		g.document(root)
		warns, errs = append(warns, g.warns...), append(errs, g.errs...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(sk.calls) == 0 {
		return nil, fmt.Errorf("import: no call to import (no named methodConfig, resilience4j instance, Envoy cluster or Istio host) in %v", sk.files)
	}
	sortDiags(warns)
	if err := checkCalls(sk); err != nil {
		return nil, err
	}
	text, from := sk.toml()
	if err := checkGenerated(sk, text, from); err != nil {
		return nil, err
	}
	return &Result{TOML: text, Warnings: dedupe(warns), sk: sk}, nil
}

func sortDiags(ds []Diag) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// dedupe drops repeated diagnostics (a base config's property is reported
// once, not once per instance that inherits it); ds is sorted.
func dedupe(ds []Diag) []Diag {
	var out []Diag
	for i, d := range ds {
		if i == 0 || d != ds[i-1] {
			out = append(out, d)
		}
	}
	return out
}

// importIstio reads one file of Istio resources, every YAML document.
func importIstio(sk *skeleton, s Source) ([]Diag, Errors, error) {
	docs, err := parseDocs(s.Name, s.Data)
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	sk.files = append(sk.files, s.Name)
	g := &istioReader{file: s.Name, sk: sk, calls: map[string]int{}}
	for i, d := range docs {
		g.document(d, i)
	}
	return g.warns, g.errs, nil
}
