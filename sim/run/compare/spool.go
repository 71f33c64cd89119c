package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/sim/topology"
)

// spoolDir is the folder, inside a comparison's staging folder, where
// every run's time-series rows wait until timeseries.csv is assembled in
// order; it is removed before the set is committed.
const spoolDir = ".series-spool"

func spoolPath(spool string, arm, rep int) string {
	return filepath.Join(spool, fmt.Sprintf("%d-%d.csv", arm, rep))
}

// spoolSeries writes a run's rows of timeseries.csv to its spool file, so
// that a comparison never holds every run's series in memory.
func spoolSeries(spool string, arm, rep int, res *topology.Result, name string) error {
	return atomicfile.Write(spoolPath(spool, arm, rep), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		writeSeriesRows(cw, name, rep, res)
		return cw.Error()
	})
}

// copySpool appends a run's spooled rows to w and removes the file.
func copySpool(w io.Writer, spool string, arm, rep int) error {
	p := spoolPath(spool, arm, rep)
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("time series of run %d-%d: %w", arm, rep, err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("time series of run %d-%d: %w", arm, rep, err)
	}
	return os.Remove(p)
}
