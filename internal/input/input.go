package input

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Stdin is the path that names standard input, and StdinName the name
// errors give it.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// The refusals: ErrTooLarge marks a source larger than its limit,
// ErrEmpty a pipe, FIFO or device that gave no data, ErrDirectory a
// directory, ErrNotRegular what OpenRegular refuses.
var (
	ErrTooLarge   = errors.New("larger than the limit")
	ErrEmpty      = errors.New("read nothing")
	ErrDirectory  = errors.New("is a directory")
	ErrNotRegular = errors.New("is not a regular file (a FIFO, device or socket cannot be read here)")
)

// Refused reports whether err is one of this package's refusals: the
// user's input is at fault, not the program (ressim exits with status 2).
func Refused(err error) bool {
	for _, e := range []error{ErrTooLarge, ErrEmpty, ErrDirectory, ErrNotRegular} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// SizeError says which source was over which limit, in bytes.
type SizeError struct {
	Name  string
	Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s is larger than the %s limit", e.Name, Size(e.Limit))
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

// Size writes a byte count as people read it: "1 MiB", "64 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}

// Open opens path for reading without waiting on a FIFO, and refuses a
// directory. It reports whether the file is a regular file: a pipe, FIFO
// or device can be read only once and may never end.
func Open(path string) (f *os.File, regular bool, err error) {
	f, err = openNoWait(path)
	if err != nil {
		return nil, false, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, err
	}
	if st.IsDir() {
		f.Close()
		return nil, false, fmt.Errorf("%s %w", path, ErrDirectory)
	}
	return f, st.Mode().IsRegular(), nil
}

// OpenRegular opens path for reading, refusing anything but a regular
// file (a directory, a FIFO, a device, a socket) with a clear error:
// for inputs read more than once, or too large to read whole.
func OpenRegular(path string) (*os.File, error) {
	f, regular, err := Open(path)
	if err != nil {
		return nil, err
	}
	if !regular {
		f.Close()
		return nil, fmt.Errorf("%s %w", path, ErrNotRegular)
	}
	return f, nil
}

// ReadFile reads the whole of path, at most limit bytes; "-" reads
// standard input. A larger source is a *SizeError (ErrTooLarge), an empty
// pipe, FIFO or device ErrEmpty; an empty regular file is returned as is.
func ReadFile(path string, limit int64) ([]byte, error) {
	if path == Stdin {
		return Read(StdinName, os.Stdin, limit, true)
	}
	f, regular, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f, limit, !regular)
}

// Read reads at most limit bytes of r, named name in errors; special
// marks a source that is not a regular file, whose emptiness is an error
// (ErrEmpty).
func Read(name string, r io.Reader, limit int64, special bool) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, &SizeError{Name: name, Limit: limit}
	}
	if len(data) == 0 && special {
		return nil, fmt.Errorf("%s: %w: the pipe, FIFO or device gave no data (was anything writing to it?)", name, ErrEmpty)
	}
	return data, nil
}
