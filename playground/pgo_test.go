//go:build !js

package playground

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuildIsProfileGuided checks that main.wasm's build is given the
// module's profile when it is there and builds unguided when it is not,
// so a source copy without the profile still builds.
func TestBuildIsProfileGuided(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ""))
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "cmd", "ressim", "default.pgo")
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("the repository's profile is missing: %v", err)
	}
	if got := profile(root); got != want {
		t.Errorf("profile(%q) = %q, want %q", root, got, want)
	}
	if got := profile(t.TempDir()); got != "off" {
		t.Errorf("profile of a folder without %s = %q, want off", PGOFile, got)
	}
}
