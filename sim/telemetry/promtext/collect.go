package promtext

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ressim/ressim/sim/telemetry"
)

// collector gathers samples into series, keeping the budgets and
// refusing two points of a series at one time.
type collector struct {
	file   string
	opt    Options
	index  map[string]int // series ID → position in series
	id     []byte         // the current sample's series ID, reused
	series []building
	points int
}

// building is a series being read. times is nil while the points
// arrive in increasing time order; once one arrives out of order it
// holds every time seen, to find duplicates.
type building struct {
	s     telemetry.Series
	times map[int64]struct{}
}

func newCollector(file string, opt Options) *collector {
	return &collector{file: file, opt: opt, index: make(map[string]int)}
}

// add adds point p to the series name{labels}, read at line; tCol is
// the column a duplicate time is reported at.
func (c *collector) add(name string, labels []telemetry.Label, p telemetry.Point, line, tCol int) error {
	c.id = telemetry.AppendID(c.id[:0], name, labels)
	i, ok := c.index[string(c.id)] // no allocation: the compiler looks up by the bytes
	if !ok {
		if len(c.series) >= c.opt.MaxSeries {
			return &BudgetError{File: c.file, Line: line, Budget: "MaxSeries", Limit: c.opt.MaxSeries}
		}
		key := telemetry.Series{Name: name, Labels: labels}
		i = len(c.series)
		c.index[string(c.id)] = i
		key.Origin = telemetry.Origin{File: c.file, Line: line}
		c.series = append(c.series, building{s: key})
	}
	if c.points >= c.opt.MaxPoints {
		return &BudgetError{File: c.file, Line: line, Budget: "MaxPoints", Limit: c.opt.MaxPoints}
	}
	b := &c.series[i]
	pts := b.s.Points
	dup := false
	switch {
	case b.times != nil:
		_, dup = b.times[p.T]
	case len(pts) == 0 || p.T > pts[len(pts)-1].T:
	default:
		_, dup = slices.BinarySearchFunc(pts, p.T, func(q telemetry.Point, t int64) int {
			switch {
			case q.T < t:
				return -1
			case q.T > t:
				return 1
			}
			return 0
		})
		if !dup {
			b.times = make(map[int64]struct{}, len(pts)+1)
			for _, q := range pts {
				b.times[q.T] = struct{}{}
			}
		}
	}
	if dup {
		return &SyntaxError{File: c.file, Line: line, Col: tCol,
			Msg: fmt.Sprintf("second sample of %s at time %d ms", c.id, p.T)}
	}
	if b.times != nil {
		b.times[p.T] = struct{}{}
	}
	b.s.Points = append(pts, p)
	c.points++
	return nil
}

// set returns the series gathered, each in time order, sorted by ID,
// with the families given.
func (c *collector) set(families []telemetry.Family) telemetry.Set {
	out := telemetry.Set{Families: families}
	if len(c.series) > 0 {
		out.Series = make([]telemetry.Series, len(c.series))
	}
	for i := range c.series {
		b := &c.series[i]
		if b.times != nil {
			sort.Slice(b.s.Points, func(x, y int) bool { return b.s.Points[x].T < b.s.Points[y].T })
		}
		out.Series[i] = b.s
	}
	out.Sort()
	return out
}
