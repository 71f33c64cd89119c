// Package atomicfile writes output files so that a reader never sees a
// partial file: the content goes to a temporary file in the same directory,
// which is synced and then renamed over the destination. A failed or
// interrupted write leaves any previous file untouched. A set of files is
// written all-or-nothing through a Dir, a staging folder swapped into place
// in one rename; files in it are written in place.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates or replaces path with what fill writes. The directory must
// exist. On any error the temporary file is removed and path is unchanged.
//
// In a staging folder of this process's (Dir.Path, or a folder in it),
// Write writes the file in place and does not sync it: no reader sees the
// folder before Commit, whose rename makes the set atomic, and a killed
// process leaves only the folder, which the next Stage removes. A run's
// outputs are thereby atomic against a killed process but not durable
// against a power failure in the seconds after they are written; they are
// reproducible (the same file and seed give the same bytes), and the
// syncs cost a small run 2 ms of its 7 (docs/performance.md).
func Write(path string, fill func(w io.Writer) error) error {
	return WriteWith(path, new(Buffer), fill)
}

// WriteWith is Write through bw (see Buffer): a caller writing several
// files passes the same one.
func WriteWith(path string, bw *Buffer, fill func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	staged := inOwnStage(dir)
	var f *os.File
	if staged {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	} else {
		f, err = os.CreateTemp(dir, "."+base+".tmp-*")
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := f.Name()
	bw.reset(f)
	defer func() {
		bw.reset(nil)
		if err != nil {
			f.Close()
			os.Remove(name)
		}
	}()
	if err = fill(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = bw.flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(0o644); err != nil { // whatever the umask
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !staged {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !staged {
		if err = os.Rename(name, path); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

// inOwnStage reports whether dir is, or is in, a staging folder of this
// process's.
func inOwnStage(dir string) bool {
	for d := filepath.Clean(dir); ; {
		parent, name := filepath.Split(d)
		if _, pid, ok := parseStage(name); ok {
			return pid == os.Getpid()
		}
		parent = filepath.Clean(parent)
		if parent == d || name == "" {
			return false
		}
		d = parent
	}
}

// WriteBytes creates or replaces path with data, atomically.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
