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

// PrometheusTextFile is the Prometheus text (0.0.4) export's name in the
// output directory.
const PrometheusTextFile = "metrics.prom"

// omFlags are run's metrics-export flags.
type omFlags struct {
	on, prom bool
	start    string
}

func (f *omFlags) register(c *cobra.Command) {
	c.Flags().BoolVar(&f.on, "openmetrics", false, "also write the time series as OpenMetrics text ("+OpenMetricsFile+"), for promtool tsdb create-blocks-from openmetrics")
	c.Flags().BoolVar(&f.prom, "prometheus-text", false, "also write the time series as Prometheus text format 0.0.4 ("+PrometheusTextFile+"), for promtool check metrics")
	c.Flags().StringVar(&f.start, "openmetrics-start", openmetrics.DefaultStart.Format(time.RFC3339),
		"the instant (RFC 3339) simulated time 0 is mapped onto in "+OpenMetricsFile+", "+PrometheusTextFile+" and trace.otlp.json")
}

// options parses the flags; ok is false without --openmetrics or
// --prometheus-text.
func (f *omFlags) options() (opt openmetrics.Options, ok bool, err error) {
	if !f.on && !f.prom {
		return opt, false, nil
	}
	t, err := f.startTime()
	if err != nil {
		return opt, false, err
	}
	return openmetrics.Options{Start: t}, true, nil
}

// startTime parses --openmetrics-start, the instant simulated time 0 is
// mapped onto in the exports and in trace.otlp.json.
func (f *omFlags) startTime() (time.Time, error) {
	t, err := time.Parse(time.RFC3339, f.start)
	if err != nil {
		return time.Time{}, usageError{fmt.Errorf("--openmetrics-start: %w", err)}
	}
	return t, nil
}

// write writes out's series to OpenMetricsFile (with --openmetrics) and
// PrometheusTextFile (with --prometheus-text) in its directory, each
// atomically, and returns their paths.
func (f *omFlags) write(out *run.Output, opt openmetrics.Options) ([]string, error) {
	var paths []string
	for _, e := range []struct {
		on     bool
		name   string
		format openmetrics.Format
	}{{f.on, OpenMetricsFile, openmetrics.OpenMetricsText}, {f.prom, PrometheusTextFile, openmetrics.PrometheusText}} {
		if !e.on {
			continue
		}
		p := filepath.Join(out.Dir, e.name)
		o := opt
		o.Format = e.format
		err := atomicfile.Write(p, func(w io.Writer) error { return openmetrics.Write(w, out.Result, o) })
		if err != nil {
			return paths, fmt.Errorf("write %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
