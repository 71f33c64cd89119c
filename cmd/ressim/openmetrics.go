package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/atomicfile"
	"github.com/ressim/ressim/sim/export/openmetrics"
	"github.com/ressim/ressim/sim/run"
)

// OpenMetricsFile is the OpenMetrics export's name in the output
// directory.
const OpenMetricsFile = "metrics.om"

// omFlags are run's OpenMetrics flags.
type omFlags struct {
	on    bool
	start string
}

func (f *omFlags) register(c *cobra.Command) {
	c.Flags().BoolVar(&f.on, "openmetrics", false, "also write the time series as OpenMetrics text ("+OpenMetricsFile+"), for promtool tsdb create-blocks-from openmetrics")
	c.Flags().StringVar(&f.start, "openmetrics-start", openmetrics.DefaultStart.Format(time.RFC3339),
		"the instant (RFC 3339) simulated time 0 is mapped onto in "+OpenMetricsFile)
}

// options parses the flags; ok is false without --openmetrics.
func (f *omFlags) options() (opt openmetrics.Options, ok bool, err error) {
	if !f.on {
		return opt, false, nil
	}
	t, err := time.Parse(time.RFC3339, f.start)
	if err != nil {
		return opt, false, usageError{fmt.Errorf("--openmetrics-start: %w", err)}
	}
	return openmetrics.Options{Start: t}, true, nil
}

// write writes out's series to OpenMetricsFile in its directory and
// returns the path.
func (f *omFlags) write(out *run.Output, opt openmetrics.Options) (string, error) {
	p := filepath.Join(out.Dir, OpenMetricsFile)
	err := atomicfile.Write(p, func(w io.Writer) error { return openmetrics.Write(w, out.Result, opt) })
	if err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	return p, nil
}
