package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ressim/ressim/sim/experiment"
)

// DefaultSeries is what a comparison writes to timeseries.csv when neither
// CompareOptions.Series nor [experiment].compare_series says: replication
// 0 of each variant. Every replication's series made the file tens of
// megabytes (55-70 MB for one comparison), and any replication's series
// can be regenerated exactly with ressim run --variant V --replication K.
const DefaultSeries = experiment.SeriesFirst

// seriesMode resolves the series option: the command line's, else the
// file's, else DefaultSeries.
func SeriesMode(exp *experiment.Experiment, opt CompareOptions) string {
	switch {
	case opt.Series != "":
		return opt.Series
	case exp.CompareSeries != "":
		return exp.CompareSeries
	}
	return DefaultSeries
}

// seriesReplications is how many replications per variant a series mode
// writes, of the reps a comparison has.
func SeriesReplications(mode string, reps int) int {
	switch mode {
	case experiment.SeriesAll:
		return reps
	case experiment.SeriesNone:
		return 0
	}
	return min(reps, 1)
}

// CheckSeries returns an error unless s is a series mode or empty.
func CheckSeries(s string) error {
	if s == "" || slices.Contains(experiment.SeriesModes, s) {
		return nil
	}
	return fmt.Errorf("series must be one of %s, got %q", strings.Join(experiment.SeriesModes, ", "), s)
}
