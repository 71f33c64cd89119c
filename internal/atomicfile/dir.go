package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// stageMark separates a staged folder's target name from its owner's
// process id in the staging folder's name: ".<target>.ressim-tmp-<pid>-<random>".
const stageMark = ".ressim-tmp-"

// Dir is an output folder being written all-or-nothing. Files go to a
// hidden staging folder beside the target (same parent, so the same file
// system); Commit swaps it into place in one rename, so that a reader sees
// either the complete old set or the complete new one, never a mix. A
// process killed before Commit leaves only the staging folder, which the
// next Stage into the same parent removes.
//
// The target's subfolders are not part of the set and survive a Commit
// (out/<name>/compare stays when ressim run rewrites out/<name>); files
// of the old set that the new one lacks are gone. A Dir is not safe for
// concurrent use.
type Dir struct {
	target, stage string
	committed     bool
}

// Stage cleans stale staging folders in target's parent, creates the
// parent and a fresh staging folder, and checks that it is writable: an
// unwritable or mistyped output path fails here, before any work.
func Stage(target string) (*Dir, error) {
	target = filepath.Clean(target)
	parent, base := filepath.Split(target)
	if parent == "" {
		parent = "."
	}
	if base == "" || base == "." || base == ".." {
		return nil, fmt.Errorf("output folder %q: not a folder name", target)
	}
	if st, err := os.Stat(target); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("output folder %s: exists and is not a folder", target)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output folder %s: %w", target, err)
	}
	CleanStale(parent)
	stage, err := os.MkdirTemp(parent, "."+base+stageMark+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("output folder %s: cannot write in %s: %w", target, parent, err)
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		os.RemoveAll(stage)
		return nil, fmt.Errorf("output folder %s: %w", target, err)
	}
	probe := filepath.Join(stage, ".probe")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		os.RemoveAll(stage)
		return nil, fmt.Errorf("output folder %s: cannot write: %w", target, err)
	}
	os.Remove(probe)
	return &Dir{target: target, stage: stage}, nil
}

// Path is the staging folder, where the set's files are to be written.
func (d *Dir) Path() string { return d.stage }

// Target is the folder the set is committed to.
func (d *Dir) Target() string { return d.target }

// Commit moves the staged set into place: the target then holds exactly
// the staged files plus the old target's subfolders.
func (d *Dir) Commit() error {
	if d.committed {
		return fmt.Errorf("commit %s: already committed", d.target)
	}
	if _, err := os.Lstat(d.target); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(d.stage, d.target); err != nil {
			return fmt.Errorf("commit %s: %w", d.target, err)
		}
		d.committed = true
		return nil
	}
	if err := carrySubdirs(d.target, d.stage); err != nil {
		return fmt.Errorf("commit %s: %w", d.target, err)
	}
	if err := swap(d.stage, d.target); err != nil {
		return fmt.Errorf("commit %s: %w", d.target, err)
	}
	d.committed = true
	os.RemoveAll(d.stage) // now the old set
	return nil
}

// Abort removes the staging folder; the target is untouched. After Commit
// it does nothing, so that it can be deferred.
func (d *Dir) Abort() {
	if !d.committed {
		os.RemoveAll(d.stage)
	}
}

// carrySubdirs moves from's subfolders into to, where the new set has no
// entry of that name.
func carrySubdirs(from, to string) error {
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dst := filepath.Join(to, e.Name())
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(from, e.Name()), dst); err != nil {
			return err
		}
	}
	return nil
}

// CleanStale removes the staging folders in parent left by processes that
// no longer run (killed before they committed), first moving back any
// subfolder they had carried over from their target (see Commit) and
// restoring a target that a non-atomic swap had set aside. Errors are
// ignored: cleaning is best effort and never blocks a new run.
func CleanStale(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		target, pid, ok := parseStage(e.Name())
		if !ok || !e.IsDir() || processAlive(pid) {
			continue
		}
		stage := filepath.Join(parent, e.Name())
		tpath := filepath.Join(parent, target)
		if strings.HasSuffix(e.Name(), oldSuffix) {
			if _, err := os.Lstat(tpath); errors.Is(err, fs.ErrNotExist) {
				os.Rename(stage, tpath)
				continue
			}
		}
		if _, err := os.Stat(tpath); err == nil {
			carrySubdirs(stage, tpath)
		}
		os.RemoveAll(stage)
	}
}

// parseStage splits ".<target>.ressim-tmp-<pid>-<random>" into its target
// and pid.
func parseStage(name string) (string, int, bool) {
	i := strings.LastIndex(name, stageMark)
	if !strings.HasPrefix(name, ".") || i < 1 {
		return "", 0, false
	}
	target := name[1:i]
	rest := name[i+len(stageMark):]
	j := strings.IndexByte(rest, '-')
	if j <= 0 || target == "" {
		return "", 0, false
	}
	pid, err := strconv.Atoi(rest[:j])
	if err != nil || pid <= 0 {
		return "", 0, false
	}
	return target, pid, true
}
