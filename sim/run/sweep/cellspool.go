package sweep

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/ressim/ressim/sim/run"
	"github.com/ressim/ressim/sim/run/output"
)

// cellSpoolDir is the folder, inside a sweep's staging folder, where each
// cell's run records wait until sweep.json is written; it is removed
// before the set is committed.
const cellSpoolDir = ".cell-spool"

// cellSpool holds a sweep's run records on disk, one file per cell, each
// record appended as its run finishes (in any order). A sweep then holds
// in memory only its cells' statistics; the records are read back one at
// a time, in replication order, when sweep.json is written. A line is
// bounded like a partial file's (ReadLine): a record is a few hundred
// bytes plus about 100 per fault.
// A spool without a folder (a Memory sink's) keeps the same lines in
// memory, for the playground, which has no file system; its memory then
// grows with the runs, within the page's budget.
// Not safe for concurrent use: the sweep calls add under its lock.
type cellSpool struct {
	dir string
	mem map[int][]byte // the cells' lines, when dir is ""
}

// newCellSpool creates the spool inside the staging folder stage, or in
// memory when stage is "".
func newCellSpool(stage string) (*cellSpool, error) {
	if stage == "" {
		return &cellSpool{mem: map[int][]byte{}}, nil
	}
	dir := filepath.Join(stage, cellSpoolDir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", output.ErrOutput, err)
	}
	return &cellSpool{dir: dir}, nil
}

func (s *cellSpool) path(cell int) string {
	return filepath.Join(s.dir, strconv.Itoa(cell)+".jsonl")
}

// add appends rec to cell's file, as a line "<replication> <record>".
// Each float crosses the file exactly (run.ExactJSON), so the statistics
// read back are those of the run.
func (s *cellSpool) add(cell int, rec run.RunRecord) error {
	data, err := run.ExactJSON(rec)
	if err != nil {
		return err
	}
	line := strconv.AppendInt(nil, int64(rec.Replication), 10)
	line = append(append(append(line, ' '), data...), '\n')
	if s.dir == "" {
		s.mem[cell] = append(s.mem[cell], line...)
		return nil
	}
	f, err := os.OpenFile(s.path(cell), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// span is where one record's line lies in a cell's file.
type span struct{ off, n int64 }

// each calls fn with cell's replications 0 to reps-1, in order, one at a
// time: it indexes the file (an offset per replication), then reads each
// line by itself, so that it holds one record whatever reps is. Records
// of later replications (runs that finished after a stop) are skipped; a
// missing or repeated one is an error.
func (s *cellSpool) each(cell, reps int, fn func(run.RunRecord) error) error {
	if reps == 0 {
		return nil
	}
	f, err := s.open(cell)
	if err != nil {
		return fmt.Errorf("records of cell %d: %w", cell, err)
	}
	defer f.Close()
	spans, err := indexSpool(f, reps)
	if err != nil {
		return fmt.Errorf("records of cell %d: %w", cell, err)
	}
	var buf []byte
	for r, sp := range spans {
		buf = slices.Grow(buf[:0], int(sp.n))[:sp.n]
		if _, err := f.ReadAt(buf, sp.off); err != nil {
			return fmt.Errorf("records of cell %d: %w", cell, err)
		}
		rec, err := parseSpoolLine(buf)
		if err == nil && rec.Replication != r {
			err = fmt.Errorf("line of replication %d holds %d", r, rec.Replication)
		}
		if err == nil {
			err = fn(rec)
		}
		if err != nil {
			return fmt.Errorf("records of cell %d: %w", cell, err)
		}
	}
	return nil
}

// spoolFile is one cell's lines: a file, or a memory spool's bytes.
type spoolFile interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// memFile is a memory spool's cell, read like a file.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// open returns cell's lines for reading.
func (s *cellSpool) open(cell int) (spoolFile, error) {
	if s.dir == "" {
		return memFile{bytes.NewReader(s.mem[cell])}, nil
	}
	return os.Open(s.path(cell))
}

// indexSpool reads a cell's file once and returns where the line of each
// replication 0 to reps-1 lies.
func indexSpool(f io.Reader, reps int) ([]span, error) {
	spans := make([]span, reps)
	br := bufio.NewReaderSize(f, 64<<10)
	var off int64
	for {
		line, err := run.ReadLine(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		sp := span{off, int64(len(line))}
		off += sp.n + 1
		rs, _, _ := bytes.Cut(line, []byte(" "))
		r, err := strconv.Atoi(string(rs))
		switch {
		case err != nil || r < 0:
			return nil, fmt.Errorf("bad line at offset %d", sp.off)
		case r >= reps:
			continue
		case spans[r].n != 0:
			return nil, fmt.Errorf("replication %d twice", r)
		}
		spans[r] = sp
	}
	for r, sp := range spans {
		if sp.n == 0 {
			return nil, fmt.Errorf("replication %d missing", r)
		}
	}
	return spans, nil
}

func parseSpoolLine(line []byte) (run.RunRecord, error) {
	_, data, _ := bytes.Cut(line, []byte(" "))
	return run.ParseExactJSON(data)
}

// remove deletes the spool.
func (s *cellSpool) remove() error {
	if s.dir == "" {
		s.mem = nil
		return nil
	}
	return os.RemoveAll(s.dir)
}
