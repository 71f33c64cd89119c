package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// forgeGoodput rewrites the first unit line of the partial file at path
// with its goodput set to value, and the line's SHA-256 recomputed as a
// forger would: the checksum is over the unit's data alone, with nothing
// secret in it, so it guards against corruption, not against an edit.
// It returns the unit forged.
func forgeGoodput(t *testing.T, path, value string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) < 2 || len(lines[1]) == 0 {
		t.Fatalf("%s holds no unit line", path)
	}
	var pu partialUnit
	if err := json.Unmarshal(lines[1], &pu); err != nil {
		t.Fatal(err)
	}
	var w wireRecord
	if err := json.Unmarshal(pu.Data, &w); err != nil {
		t.Fatal(err)
	}
	if w.Floats["goodput"] == value {
		t.Fatalf("unit %d's goodput is already %s", pu.Unit, value)
	}
	w.Floats["goodput"] = value
	if pu.Data, err = json.Marshal(w); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pu.Data)
	pu.SHA256 = hex.EncodeToString(sum[:])
	line, err := json.Marshal(pu)
	if err != nil {
		t.Fatal(err)
	}
	lines[1] = append(line, '\n')
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return pu.Unit
}

// A unit whose goodput was edited and its checksum recomputed passes
// every check of the merge, which writes the forged value into
// sweep.json: the per-line SHA-256 catches corruption, not forgery.
func TestMergeForgedUnit(t *testing.T) {
	exp, data := loadSweep(t, "sweep-small.toml")
	paths := runShards(t, exp, data, 2, filepath.Join(t.TempDir(), "parts"))
	const forged = "12345.678"
	forgeGoodput(t, paths[1], forged)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Merge(paths, CompareOptions{OutDir: out}); err != nil {
		t.Fatalf("merge of the forged partial: %v", err)
	}
	sj, err := os.ReadFile(filepath.Join(out, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sj), forged) {
		t.Fatalf("sweep.json does not hold the forged goodput %s", forged)
	}
}
