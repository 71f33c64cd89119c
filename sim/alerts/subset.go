package alerts

import (
	"slices"
	"time"

	"github.com/ressim/ressim/sim/alerts/promql"
	"github.com/ressim/ressim/sim/export/openmetrics"
	"github.com/ressim/ressim/sim/topology"
)

// SubsetInput returns res's series as the page's evaluator (package
// promql) takes them, and the end of the evaluated span for the
// evaluation interval ev: the points and span of the promtool test file
// (a point at every whole interval, up to the last whole evaluation
// interval), so that both evaluate the same input.
func SubsetInput(res *topology.Result, ev time.Duration) ([]promql.Series, time.Duration, error) {
	series, iv, end, err := runSeries(res, ev)
	if err != nil {
		return nil, 0, err
	}
	out := make([]promql.Series, 0, len(series))
	for _, s := range series {
		pairs := []string{promql.MetricName, s.Name}
		for _, l := range s.Labels {
			pairs = append(pairs, l[0], l[1])
		}
		ps := promql.Series{Labels: promql.NewLabels(pairs...)}
		for _, p := range s.Points {
			if p.T%iv == 0 && p.T <= end {
				ps.Points = append(ps.Points, promql.Point{T: p.T, V: p.V})
			}
		}
		out = append(out, ps)
	}
	return out, end, nil
}

// SubsetEpisodes renders the page evaluator's alert timelines as
// episodes, in order of pending time as Report's.
func SubsetEpisodes(tls []promql.AlertTimeline) []Episode {
	var out []Episode
	for _, a := range tls {
		for _, e := range a.Episodes {
			out = append(out, Episode{Alert: a.ID(), Pending: e.Pending, Fired: e.Fired, Firing: e.Firing, Resolved: e.Resolved, End: e.End})
		}
	}
	slices.SortStableFunc(out, func(a, b Episode) int { return int(a.Pending - b.Pending) })
	return out
}

// runSeries returns res's exported series, its interval, and the end of
// the span evaluated every ev.
func runSeries(res *topology.Result, ev time.Duration) ([]openmetrics.Series, time.Duration, time.Duration, error) {
	series, err := openmetrics.Collect(res)
	if err != nil {
		return nil, 0, 0, err
	}
	iv := res.Series.Interval()
	end := res.Duration / iv * iv
	if end == 0 {
		return nil, 0, 0, errShort(res)
	}
	return series, iv, end / ev * ev, nil
}
