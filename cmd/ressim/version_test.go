package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in the repository's root and returns its trimmed output.
func git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

// buildRessim builds cmd/ressim with go build and the given flags and
// returns what 'ressim version' prints.
func buildRessim(t *testing.T, flags ...string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "ressim")
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), "-o", exe, "./cmd/ressim")...)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", flags, err, out)
	}
	out, err := exec.Command(exe, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("ressim version: %v\n%s", err, out)
	}
	return string(out)
}

// A binary built from the checkout names its commit: stamped by the
// linker (-ldflags -X, as release builds and the Dockerfile do), and, in
// a plain git checkout, by the Go toolchain alone. Go does not stamp a
// build from a git worktree (its .git is a file, and cmd/go looks for a
// .git folder), so that half is skipped there.
func TestVersionNamesCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ressim")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	head := git(t, "rev-parse", "HEAD")
	out := buildRessim(t, "-ldflags", "-X github.com/ressim/ressim/internal/version.commit="+head)
	if !strings.HasPrefix(out, "ressim 0.1.0 (commit "+head) {
		t.Errorf("built with -X commit=%s, 'ressim version' printed %q", head, out)
	}
	if fi, err := os.Stat(filepath.Join("..", "..", ".git")); err != nil || !fi.IsDir() {
		t.Logf("a git worktree (.git is not a folder): Go does not stamp its builds; checked -ldflags only")
		return
	}
	out = buildRessim(t, "-buildvcs=true")
	if !strings.Contains(out, "commit "+head) {
		t.Errorf("built from the checkout, 'ressim version' printed %q, want commit %s", out, head)
	}
}
