package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func stageWith(t *testing.T, target string, files ...string) *Dir {
	t.Helper()
	d, err := Stage(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(d.Path(), f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestCommitReplacesTheWholeSet: the second set replaces the first
// entirely (a file only the first had is gone), the target's subfolder
// survives, and nothing is left beside the target.
func TestCommitReplacesTheWholeSet(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "out")
	if err := stageWith(t, target, "a.json", "old-only.png").Commit(); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(target, "compare"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := stageWith(t, target, "a.json", "b.csv")
	if got := names(t, target); !slices.Equal(got, []string{"a.json", "compare", "old-only.png"}) {
		t.Fatalf("before commit the target changed: %v", got)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, target); !slices.Equal(got, []string{"a.json", "b.csv", "compare"}) {
		t.Fatalf("after commit: %v", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Fatalf("left beside the target: %v", got)
	}
}

// TestAbortLeavesTheOldSet and an unwritable parent fails at Stage.
func TestAbortLeavesTheOldSet(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "out")
	stageWith(t, target, "old").Commit()
	stageWith(t, target, "new").Abort()
	if got := names(t, target); !slices.Equal(got, []string{"old"}) {
		t.Fatalf("target %v", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Fatalf("parent %v", got)
	}
	file := filepath.Join(parent, "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := Stage(filepath.Join(file, "out")); err == nil {
		t.Fatal("Stage under a file succeeded")
	}
	if _, err := Stage(file); err == nil {
		t.Fatal("Stage onto a file succeeded")
	}
}

// TestCleanStale: a dead process's staging folder is removed, after the
// subfolder it had carried is moved back; a set-aside target is restored;
// a live process's staging folder is kept.
func TestCleanStale(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "out")
	os.MkdirAll(target, 0o755)
	stale := filepath.Join(parent, ".out"+stageMark+"1073741824-123")
	os.MkdirAll(filepath.Join(stale, "compare"), 0o755)
	os.WriteFile(filepath.Join(stale, "summary.json"), nil, 0o644)
	aside := filepath.Join(parent, ".gone"+stageMark+"1073741824-9"+oldSuffix)
	os.MkdirAll(aside, 0o755)
	os.WriteFile(filepath.Join(aside, "kept"), nil, 0o644)
	live := filepath.Join(parent, ".out"+stageMark+"1-5") // pid 1 always runs
	os.MkdirAll(live, 0o755)
	CleanStale(parent)
	if got := names(t, parent); !slices.Equal(got, []string{".out" + stageMark + "1-5", "gone", "out"}) {
		t.Fatalf("parent %v", got)
	}
	if got := names(t, target); !slices.Equal(got, []string{"compare"}) {
		t.Fatalf("target %v", got)
	}
	if got := names(t, filepath.Join(parent, "gone")); !slices.Equal(got, []string{"kept"}) {
		t.Fatalf("restored %v", got)
	}
}

func TestParseStage(t *testing.T) {
	steps := []struct {
		name, target string
		pid          int
		ok           bool
	}{
		{".out" + stageMark + "12-34", "out", 12, true},
		{".a.b" + stageMark + "7-x-old", "a.b", 7, true},
		{"out" + stageMark + "12-34", "", 0, false},
		{"." + stageMark + "12-34", "", 0, false},
		{".out" + stageMark + "x-34", "", 0, false},
		{".out.tmp-12", "", 0, false},
	}
	for _, s := range steps {
		target, pid, ok := parseStage(s.name)
		if target != s.target || pid != s.pid || ok != s.ok {
			t.Errorf("%q: %q %d %v, want %q %d %v", s.name, target, pid, ok, s.target, s.pid, s.ok)
		}
	}
}

// TestWriteInStage: in this process's staging folder (and a folder in it)
// Write writes in place, leaving no temporary file, with the mode Write
// gives outside; a failed fill leaves no file. In another process's
// staging folder, or elsewhere, Write goes through a temporary file.
func TestWriteInStage(t *testing.T) {
	parent := t.TempDir()
	d, err := Stage(filepath.Join(parent, "out"))
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(d.Path(), "runs")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{d.Path(), sub} {
		if !inOwnStage(dir) {
			t.Fatalf("inOwnStage(%s) = false", dir)
		}
		if err := WriteBytes(filepath.Join(dir, "a.csv"), []byte("x\n")); err != nil {
			t.Fatal(err)
		}
		if err := Write(filepath.Join(dir, "b.csv"), func(w io.Writer) error {
			w.Write([]byte("partial"))
			return errors.New("fill failed")
		}); err == nil {
			t.Fatal("a failed fill: no error")
		}
		if got := names(t, dir); !slices.Equal(got, []string{"a.csv"}) && !slices.Equal(got, []string{"a.csv", "runs"}) {
			t.Fatalf("%s holds %v, want a.csv only", dir, got)
		}
		st, err := os.Stat(filepath.Join(dir, "a.csv"))
		if err != nil || st.Mode().Perm() != 0o644 {
			t.Fatalf("a.csv: %v, mode %v", err, st.Mode())
		}
	}
	other := filepath.Join(parent, ".out"+stageMark+strconv.Itoa(os.Getpid()+1)+"-x")
	for _, dir := range []string{parent, other, filepath.Join(parent, "plain")} {
		if inOwnStage(dir) {
			t.Errorf("inOwnStage(%s) = true", dir)
		}
	}
	d.Abort()
}
