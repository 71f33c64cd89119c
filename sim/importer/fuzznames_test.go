package importer

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/experiment"
)

// FuzzImportNames puts arbitrary names where each importer copies names:
// two callee names (a resilience4j instance, an Envoy cluster, an Istio
// host, a gRPC service), a label (a resilience4j config name, inherited
// and so written into source comments; an Envoy route, virtual host and
// route-config name; an Istio resource name; a gRPC method, written as the
// step's operation) that is also the file's name, and an unknown key
// (warned about). The sources are written by a YAML or JSON encoder, so
// every name arrives intact. The property:
//
//   - the import never reports a bug of its own, and a diagnostic is one
//     line without control characters;
//   - when the callee names are valid ressim names, the import succeeds;
//   - a successful import parses (experiment.Parse) into exactly the
//     skeleton (checkOnlyImported): the imported calls, their callees, the
//     one client and no other table ([[fault]], [[variant]], [sweep]...),
//     and its text has no control character but newlines;
//   - its calls are the callee names given, in order, and the gRPC
//     method is the step's operation, byte for byte.
//
// The seeds include issue 23's config name that added a [[fault]].
func FuzzImportNames(f *testing.F) {
	hostile := []string{faultName, "\x1b[2J\x1b]0;t\a\r\b\x9b", "a\"b\\c\n[[variant]]\nname = \"v\"\n#", "]]\n[sweep]\n", "a b", "\u202e\u2028#"}
	for k := range Kinds() {
		for _, h := range hostile {
			f.Add(uint8(k), h, "svc-a", "svc.b", h)
		}
		f.Add(uint8(k), "base", faultName, "b", "x")
	}
	f.Fuzz(func(t *testing.T, k uint8, label, n1, n2, key string) {
		kind := Kinds()[int(k)%len(Kinds())]
		file := "in/" + label // as given: a file name need not be UTF-8
		// A YAML or JSON source is UTF-8: its encoder would change the rest.
		label, n1, n2, key = validUTF8(label), validUTF8(n1), validUTF8(n2), validUTF8(key)
		src := namedSource(kind, label, n1, n2, key)
		r, err := Import(kind, []Source{{file, src}})
		var errs Errors
		switch {
		case errors.Is(err, errImportBug):
			t.Fatalf("%v\nsource:\n%s", err, src)
		case errors.As(err, &errs):
			for _, d := range errs {
				oneSafeLine(t, d)
			}
			// gRPC refuses a method named twice: two equal names are
			// refused as gRPC refuses them (TestGRPCMethodTwice).
			if goodName(n1) && goodName(n2) && !(kind == "grpc" && n1 == n2) {
				t.Fatalf("valid names %q, %q refused: %v\nsource:\n%s", n1, n2, err, src)
			}
			return
		case err != nil: // the source does not parse (a duplicate key), or is too large
			return
		}
		for _, d := range r.Warnings {
			oneSafeLine(t, d)
		}
		e, err := experiment.Parse("f.toml", []byte(r.TOML))
		if err != nil {
			t.Fatalf("generated experiment invalid: %v\n%s", err, r.TOML)
		}
		checkOnlyImported(t, kind, r, e)
		if goodName(n1) && goodName(n2) { // else some importers skip a name with a warning
			checkNames(t, kind, r, e, label, n1, n2)
		}
	})
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// oneSafeLine fails unless a diagnostic prints as one line without
// control characters.
func oneSafeLine(t *testing.T, d Diag) {
	t.Helper()
	if s := d.String(); termsafe.Line(s) != s || d.Line < 1 || d.Col < 1 {
		t.Fatalf("diagnostic %q is not one safe line with a position", s)
	}
}

// checkNames: the calls are the given (valid) callee names, in order, and
// the gRPC method is the operation.
func checkNames(t *testing.T, kind string, r *Result, e *experiment.Experiment, label, n1, n2 string) {
	t.Helper()
	type call struct{ service, operation string }
	var want []call
	switch kind {
	case "grpc":
		want = []call{{n1, label}, {n2, ""}}
	default:
		want = []call{{n1, ""}}
		if n2 != n1 {
			want = append(want, call{n2, ""})
		}
	}
	steps := e.Model.Services[0].Steps
	if len(steps) != len(want) {
		t.Fatalf("%d calls, want %v:\n%s", len(steps), want, r.TOML)
	}
	for i, w := range want {
		if c := steps[i].Calls[0]; c.Service != w.service || c.Operation != w.operation {
			t.Fatalf("call %d is %q operation %q, want %q operation %q:\n%s", i, c.Service, c.Operation, w.service, w.operation, r.TOML)
		}
	}
}

// namedSource writes a source of the kind with the names in place.
func namedSource(kind, label, n1, n2, key string) []byte {
	s, m, l := yamlStr, yamlMap, yamlSeq
	switch kind {
	case "aws":
		// INI has no quoting: the unknown key keeps only what a key can
		// hold, prefixed so that it is never a key the import reads. The
		// label is a comment and the value of an ignored key.
		k := strings.Map(func(r rune) rune {
			if strings.ContainsRune("\r\n=[]#; \t", r) {
				return '_'
			}
			return r
		}, key)
		return []byte("# " + strings.NewReplacer("\r", " ", "\n", " ").Replace(label) + "\n[profile " + n1 + "]\nx_" + k + " = 1\nretry_mode = standard\n" +
			"[profile " + n2 + "]\nmax_attempts = 2\n")
	case "grpc":
		b, _ := json.Marshal(map[string]any{key: 1, "methodConfig": []any{map[string]any{
			"name":    []any{map[string]string{"service": n1, "method": label}, map[string]string{"service": n2}},
			"timeout": "1s"}}})
		return b
	case "envoy":
		route := m(s("name"), s(label), s("match"), m(s("prefix"), s(label)),
			s("route"), m(s("cluster"), s(n1), s("timeout"), s("1s")))
		vhost := m(s("name"), s(label), s("domains"), l(s(label)), s("routes"), l(route))
		clusters := l(m(s("name"), s(n1), s("outlier_detection"), m(s("consecutive_5xx"), s("5"))), m(s("name"), s(n2)))
		return yamlDocs(m(s(key), s("1"), s("static_resources"), m(s("clusters"), clusters,
			s("route_config"), m(s("name"), s(label), s("virtual_hosts"), l(vhost)))))
	case "istio":
		dr := m(s(key), s("1"), s("apiVersion"), s("networking.istio.io/v1"), s("kind"), s("DestinationRule"),
			s("metadata"), m(s("name"), s(label)),
			s("spec"), m(s("host"), s(n1), s("trafficPolicy"), m(s("loadBalancer"), m(s("simple"), s("ROUND_ROBIN")))))
		route := m(s("name"), s(label), s("route"), l(m(s("destination"), m(s("host"), s(n2)))), s("retries"), m(s("attempts"), s("2")))
		vs := m(s("apiVersion"), s("networking.istio.io/v1"), s("kind"), s("VirtualService"),
			s("metadata"), m(s("name"), s(label)), s("spec"), m(s("hosts"), l(s(label)), s("http"), l(route)))
		return yamlDocs(dr, vs)
	}
	cb := m(s("configs"), m(s(label), m(s("slidingWindowSize"), s("10"))),
		s("instances"), m(s(n1), m(s("baseConfig"), s(label), s("failureRateThreshold"), s("50"))))
	retry := m(s("instances"), m(s(n2), m(s("maxAttempts"), s("3"))))
	return yamlDocs(m(s(key), s("1"), s("resilience4j"), m(s("circuitbreaker"), cb, s("retry"), retry)))
}

// yamlStr is a string scalar (tagged, so that "1" stays a string where a
// name is meant, and untagged numbers are written plain).
func yamlStr(v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
	if _, err := json.Number(v).Float64(); err != nil || v == "" {
		n.Tag = "!!str"
	}
	return n
}

func yamlMap(kv ...*yaml.Node) *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Content: kv} }

func yamlSeq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: items}
}

// yamlDocs encodes each node as one document of a stream.
func yamlDocs(docs ...*yaml.Node) []byte {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return []byte("# " + err.Error())
		}
	}
	enc.Close()
	return []byte(b.String())
}
