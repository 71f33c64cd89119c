package run

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// cellSpoolDir is the folder, inside a sweep's staging folder, where each
// cell's run records wait until sweep.json is written; it is removed
// before the set is committed.
const cellSpoolDir = ".cell-spool"

// maxSpoolLine bounds one record line of a cell spool: a record is a few
// hundred bytes plus about 100 per fault, and the faults come from an
// experiment file of at most 1 MiB; the bound of a partial file's line
// holds any of them.
const maxSpoolLine = maxPartialLine

// cellSpool holds a sweep's run records on disk, one file per cell, each
// record appended as its run finishes (in any order). A sweep then holds
// in memory only its cells' statistics; the records of one cell at a
// time are read back, in replication order, when sweep.json is written.
// Not safe for concurrent use: the sweep calls add under its lock.
type cellSpool struct {
	dir string
}

// newCellSpool creates the spool inside the staging folder stage.
func newCellSpool(stage string) (*cellSpool, error) {
	dir := filepath.Join(stage, cellSpoolDir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOutput, err)
	}
	return &cellSpool{dir: dir}, nil
}

func (s *cellSpool) path(cell int) string {
	return filepath.Join(s.dir, strconv.Itoa(cell)+".jsonl")
}

// add appends rec to cell's file. Each float crosses the file exactly
// (wireRecord), so the statistics read back are those of the run.
func (s *cellSpool) add(cell int, rec RunRecord) error {
	line, err := json.Marshal(recordWire(rec))
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.path(cell), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// records reads back cell's replications 0 to reps-1, in order. Records
// of later replications (written by runs that finished after a stop) are
// skipped; a missing or repeated one is an error.
func (s *cellSpool) records(cell, reps int) ([]RunRecord, error) {
	out := make([]RunRecord, reps)
	seen := make([]bool, reps)
	f, err := os.Open(s.path(cell))
	if os.IsNotExist(err) && reps == 0 {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("records of cell %d: %w", cell, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxSpoolLine)
	for sc.Scan() {
		var w wireRecord
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			return nil, fmt.Errorf("records of cell %d: %w", cell, err)
		}
		if w.Replication < 0 || w.Replication >= reps {
			continue
		}
		if seen[w.Replication] {
			return nil, fmt.Errorf("records of cell %d: replication %d twice", cell, w.Replication)
		}
		seen[w.Replication] = true
		if out[w.Replication], err = w.record(); err != nil {
			return nil, fmt.Errorf("records of cell %d: %w", cell, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("records of cell %d: %w", cell, err)
	}
	for r, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("records of cell %d: replication %d missing", cell, r)
		}
	}
	return out, nil
}

// remove deletes the spool.
func (s *cellSpool) remove() error { return os.RemoveAll(s.dir) }
