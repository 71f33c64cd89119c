package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSwapAside exchanges two folders by three renames, the swap where
// renameat2 cannot (other systems, and file systems without
// RENAME_EXCHANGE), which the Linux build never reaches otherwise; and
// when either folder is missing it fails and leaves the other where it
// was: a missing stage fails the second rename, after the target was set
// aside, which must then come back.
func TestSwapAside(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "stage"), filepath.Join(parent, "out")
	for dir, file := range map[string]string{a: "new", b: "old"} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := swapAside(a, b); err != nil {
		t.Fatal(err)
	}
	if got := names(t, b); !slices.Equal(got, []string{"new"}) {
		t.Errorf("target holds %v, want the staged [new]", got)
	}
	if got := names(t, a); !slices.Equal(got, []string{"old"}) {
		t.Errorf("stage holds %v, want the old set [old]", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out", "stage"}) {
		t.Errorf("parent holds %v, want only [out stage] (nothing left aside)", got)
	}

	missing := filepath.Join(parent, "none")
	if err := swapAside(a, missing); err == nil {
		t.Fatal("swap with a missing target: no error")
	}
	if got := names(t, a); !slices.Equal(got, []string{"old"}) {
		t.Errorf("after the failed swap the stage holds %v, want [old]", got)
	}

	if err := swapAside(missing, b); err == nil {
		t.Fatal("swap with a missing stage: no error")
	}
	if got := names(t, b); !slices.Equal(got, []string{"new"}) {
		t.Errorf("after the failed swap the target holds %v, want [new]", got)
	}
	if got := names(t, parent); !slices.Equal(got, []string{"out", "stage"}) {
		t.Errorf("after the failed swap the parent holds %v, want [out stage]", got)
	}
}
