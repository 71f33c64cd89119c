package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/importer"
)

// FuzzLintImported: lint on any imported configuration (the first byte
// picks the kind) never panics, every finding moved to the source has a
// position, and the SARIF output is JSON.
func FuzzLintImported(f *testing.F) {
	kinds := importer.Kinds()
	for i, k := range kinds {
		files, _ := filepath.Glob(filepath.Join("..", "importer", "testdata", "*"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && kindOf(filepath.Base(p)) == k {
				f.Add(append([]byte{byte(i)}, b...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		kind := kinds[int(data[0])%len(kinds)]
		res, err := importer.Import(kind, []importer.Source{{Name: "f.src", Data: data[1:]}})
		if err != nil {
			return
		}
		e, err := experiment.Parse("f.src (imported)", []byte(res.TOML))
		if err != nil {
			t.Fatalf("imported experiment invalid: %v", err)
		}
		rep, err := Check(e, []byte(res.TOML), AllVariants)
		if err != nil {
			t.Fatal(err)
		}
		MapToSources(rep, []byte(res.TOML))
		for _, fd := range rep.Findings {
			if fd.Line < 1 || fd.Col < 1 || fd.File == "" {
				t.Fatalf("finding without a position: %+v", fd)
			}
		}
		var b bytes.Buffer
		if err := WriteSARIF(&b, rep); err != nil || !json.Valid(b.Bytes()) {
			t.Fatalf("SARIF: %v", err)
		}
	})
}

// kindOf guesses a test configuration's kind from its file name.
func kindOf(name string) string {
	for _, k := range []string{"envoy", "grpc", "istio", "resilience4j"} {
		if len(name) >= len(k) && name[:len(k)] == k {
			return k
		}
	}
	return ""
}
