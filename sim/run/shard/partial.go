package shard

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/run"
)

// PartialFormat names the partial-result format; a reader refuses others.
const PartialFormat = "ressim-partial/1"

// ErrPartial marks partial results that cannot be merged: corrupt,
// of another experiment, seed or version, or missing or duplicated units.
var ErrPartial = errors.New("partial results refused")

// errUnreadable marks a partial file that could not be opened: missing,
// a directory, or not a regular file (a FIFO, a device, a socket), which
// is not the same as corrupt.
var errUnreadable = errors.New("cannot read")

// PartialHeader is the first line of a partial file: what the shard ran.
// A partial file is JSON Lines: this header, then one line per finished
// unit (run.UnitLine), appended as units finish, so that a killed shard
// keeps what it wrote and a re-run resumes after it.
type PartialHeader struct {
	Format       string `json:"format"`
	Kind         string `json:"kind"` // "sweep" or "compare"
	Experiment   string `json:"experiment"`
	FileName     string `json:"file"`
	FileSHA256   string `json:"file_sha256"`
	Version      string `json:"ressim_version"`
	Seed         uint64 `json:"seed"`
	Replications int    `json:"replications"`
	// Series is a comparison's timeseries.csv mode (first or none).
	Series string `json:"series,omitempty"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
	// Units are the ids of the work units the shard holds: unit u is
	// replication u / k of cell (or variant) u % k, k cells in sweep.json
	// order or k variants in compare.json order.
	Units []int `json:"units"`
	// File is the experiment file itself, so that a merge needs nothing
	// else (bounded by the experiment's 1 MiB limit).
	File []byte `json:"file_bytes"`
}

// partialFile is a partial file as read: its header, its units' records
// by unit id, and whether its last line was torn (a killed writer).
type partialFile struct {
	Header  PartialHeader
	Records map[int]run.Unit
	Order   []int // unit ids in file order
	Torn    bool
}

// readPartial reads a partial file whole. A last line without its
// newline is a write the shard did not finish: tolerated (Torn) so that a
// resume can redo it; any other bad line is corruption.
func readPartial(path string) (*partialFile, error) {
	return readPartialAt(path, nil)
}

// readPartialAt is readPartial that also passes each unit line, with its
// number and text, to note (if not nil), as scanPartialAt does.
func readPartialAt(path string, note func(n int, line []byte, u int)) (*partialFile, error) {
	p := &partialFile{Records: map[int]run.Unit{}}
	h, torn, err := scanPartialAt(path, func(n int, line []byte, u int, d run.Unit) error {
		if _, dup := p.Records[u]; dup {
			return fmt.Errorf("unit %d appears twice", u)
		}
		p.Records[u] = d
		p.Order = append(p.Order, u)
		if note != nil {
			note(n, line, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.Header, p.Torn = h, torn
	return p, nil
}

// scanPartial reads a partial file's header and passes each unit line,
// verified, to unit in file order (holding one line at a time); a nil
// unit stops after the header. It reports whether the last line was torn
// (without its newline, and then not passed on). An error of unit is
// returned with the file and line.
func scanPartial(path string, unit func(u int, d run.Unit) error) (PartialHeader, bool, error) {
	if unit == nil {
		return scanPartialAt(path, nil)
	}
	return scanPartialAt(path, func(_ int, _ []byte, u int, d run.Unit) error { return unit(u, d) })
}

// scanPartialAt is scanPartial whose unit is also given each unit line's
// number (the header is line 1) and text without its newline, valid only
// during the call: what merge --verify compares a re-run with.
func scanPartialAt(path string, unit func(n int, line []byte, u int, d run.Unit) error) (PartialHeader, bool, error) {
	var h PartialHeader
	// A FIFO opened with os.Open waits in the kernel for a writer, for
	// ever if none comes; a device may never end. OpenRegular opens
	// without waiting and refuses both, and directories.
	f, err := input.OpenRegular(path)
	if err != nil {
		return h, false, fmt.Errorf("%w: %w", errUnreadable, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; n == 1 || unit != nil; n++ {
		line, err := run.ReadLine(br)
		if err == io.EOF {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			if n == 1 {
				break
			}
			return h, true, nil
		}
		if err == nil && n == 1 {
			err = readHeaderLine(line, &h)
		} else if err == nil {
			err = scanUnitLine(n, line, unit)
		}
		if err != nil {
			return h, false, fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if h.Format == "" {
		return h, false, fmt.Errorf("%s: no header: not a partial result (or cut before its first line ended)", path)
	}
	return h, false, nil
}

func readHeaderLine(line []byte, h *PartialHeader) error {
	if err := run.DecodeStrict(line, h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if h.Format != PartialFormat {
		return fmt.Errorf("format %q, want %q", h.Format, PartialFormat)
	}
	return nil
}

func scanUnitLine(n int, line []byte, unit func(n int, line []byte, u int, d run.Unit) error) error {
	u, d, err := run.ParseUnitLine(line)
	if err != nil {
		return err
	}
	return unit(n, line, u, d)
}
