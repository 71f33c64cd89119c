package importer

import (
	"fmt"
	"sort"
)

// Kinds lists the source kinds Import reads. "aws" comes last, after the
// kinds that were there before it, so that the fuzz corpora that pick a
// kind by index keep their meaning.
func Kinds() []string { return []string{"envoy", "grpc", "istio", "resilience4j", "aws"} }

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
	if kind != "grpc" && kind != "resilience4j" && kind != "envoy" && kind != "istio" && kind != "aws" {
		return nil, fmt.Errorf("import: unknown kind %q (known: %v)", kind, Kinds())
	}
	// One call per callee across every file: the documents of one system
	// (Istio's DestinationRule and VirtualService, Envoy's clusters and
	// routes, resilience4j's sections) merge by name.
	sk := &skeleton{kind: kind, byName: map[string]int{}}
	var warns []Diag
	var errs Errors
	for _, s := range sources {
		w, e, err := sk.read(s, sources)
		if err != nil {
			return nil, err
		}
		warns, errs = append(warns, w...), append(errs, e...)
	}
	if kind == "resilience4j" {
		sk.r4jPlacement()
	}
	errs = append(errs, sk.conflicts...)
	if len(errs) > 0 {
		sortDiags(errs)
		return nil, errs
	}
	if len(sk.calls) == 0 {
		return nil, fmt.Errorf("import: no call to import (no named methodConfig, resilience4j instance, Envoy cluster, Istio host or AWS profile) in %v", sk.files)
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
	g := &istioReader{file: s.Name, sk: sk, calls: sk.byName}
	for i, d := range docs {
		g.document(d, i)
	}
	return g.warns, g.errs, nil
}

// collectR4JConfigs gathers the named configs and the aspect orders of
// every resilience4j file first, so that an instance may use a config another file defines.
// A file that does not parse is skipped here and reported by the pass
// that reads it.
func collectR4JConfigs(sources []Source) (map[string]map[string]r4jConfig, map[string]r4jOrder) {
	configs := map[string]map[string]r4jConfig{}
	sk := &skeleton{r4jOrders: map[string]r4jOrder{}}
	for _, s := range sources {
		root, err := parseDoc(s.Name, s.Data)
		if err != nil {
			continue
		}
		g := &r4jReader{file: s.Name, sk: sk, calls: map[string]int{}, configs: configs, collectOnly: true}
		g.document(root)
	}
	return configs, sk.r4jOrders
}

// read reads one source of the skeleton's kind into it; all are every
// source of the import (resilience4j's configs are shared across them).
func (sk *skeleton) read(s Source, all []Source) ([]Diag, Errors, error) {
	switch sk.kind {
	case "istio":
		return importIstio(sk, s)
	case "aws":
		w, e := importAWS(sk, s)
		return w, e, nil
	}
	root, err := parseDoc(s.Name, s.Data)
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	sk.files = append(sk.files, s.Name)
	switch sk.kind {
	case "grpc":
		g := &grpcReader{file: s.Name, sk: sk}
		g.serviceConfig(root)
		return g.warns, g.errs, nil
	case "envoy":
		g := &envoyReader{file: s.Name, sk: sk, calls: sk.byName}
		g.document(root)
		return g.warns, g.errs, nil
	}
	if sk.r4jConfigs == nil {
		sk.r4jConfigs, sk.r4jOrders = collectR4JConfigs(all)
	}
	g := &r4jReader{file: s.Name, sk: sk, calls: sk.byName, configs: sk.r4jConfigs}
	g.document(root)
	return g.warns, g.errs, nil
}
