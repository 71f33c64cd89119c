package sweep

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/run"
)

// WriteSweepTable writes the grid as Markdown: per variant, a table with
// the Y values as rows and the X values as columns.
func WriteTable(w io.Writer, r *Result, stats []CellStat) error {
	var b strings.Builder
	sw := r.Sweep
	fmt.Fprintf(&b, "# %s: %s (%s) over %s", r.Name, sw.Metric.Label(), r.unit(), sw.X.Label)
	if sw.Y != nil {
		fmt.Fprintf(&b, " x %s", sw.Y.Label)
	}
	fmt.Fprintf(&b, "\n\n%d replication(s) per cell, seed %d.\n", r.Replications, r.Seed)
	for _, v := range r.Variants {
		fmt.Fprintf(&b, "\n## %s\n\n| %s \\ %s |", v, yLabel(sw), sw.X.Label)
		for _, xv := range sw.X.Values {
			fmt.Fprintf(&b, " %v |", xv)
		}
		b.WriteString("\n| --- |")
		for range sw.X.Values {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
		rows := 1
		if sw.Y != nil {
			rows = len(sw.Y.Values)
		}
		for y := 0; y < rows; y++ {
			if sw.Y != nil {
				fmt.Fprintf(&b, "| %v |", sw.Y.Values[y])
			} else {
				b.WriteString("| |")
			}
			for _, s := range stats {
				if s.Variant == v && s.Y == y {
					fmt.Fprintf(&b, " %s |", run.FmtNum(s.Value))
				}
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yLabel(sw *experiment.Sweep) string {
	if sw.Y == nil {
		return ""
	}
	return sw.Y.Label
}

func writeSweepCSV(w io.Writer, r *Result, stats []CellStat) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "x_path", "x", "y_path", "y", "metric", "unit", "n", "value", "ci_lo", "ci_hi"})
	f := run.CSVNum
	sw := r.Sweep
	for _, s := range stats {
		yp, yv := "", ""
		if sw.Y != nil {
			yp, yv = sw.Y.Path, fmt.Sprint(sw.Y.Values[s.Y])
		}
		cw.Write([]string{s.Variant, sw.X.Path, fmt.Sprint(sw.X.Values[s.X]), yp, yv, sw.Metric.Name(), r.unit(),
			strconv.Itoa(s.N), f(s.Value), f(s.CI95.Lo), f(s.CI95.Hi)})
	}
	cw.Flush()
	return cw.Error()
}
