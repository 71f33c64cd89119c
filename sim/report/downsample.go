package report

import "math"

// Downsample appends to dstX and dstY (which may be nil, or the previous
// result re-sliced to zero length to reuse their memory) a reduced copy of
// the series (x, y) for drawing it columns pixels wide over [x0, x1].
//
// It is min/max decimation per pixel column, the 2-point core of M4
// (Jugel et al., "M4: A Visualization-Oriented Time Series Data
// Aggregation", VLDB 2014): the x range is cut into columns equal bins and
// each bin keeps its minimum and maximum point, in their original order.
// So every spike survives and each column's extremes are drawn exactly.
// The first and last points of every gap-free run are kept too. NaN in y
// is a gap: runs are reduced separately and one NaN point separates them.
// A series of at most 2*columns points is copied unchanged.
//
// x must be non-decreasing, with len(x) == len(y). The output holds at most
// 2*columns + 2 points per gap-free run. Downsample does not allocate when
// dst has room.
func Downsample(dstX, dstY, x, y []float64, x0, x1 float64, columns int) ([]float64, []float64) {
	return downsample(dstX[:0], dstY[:0], x, y, x0, x1, columns, false)
}

// downsample is Downsample; with positive set, y < MinLog (and so y <= 0)
// is also a gap: a log axis cannot show it.
func downsample(dx, dy, x, y []float64, x0, x1 float64, columns int, positive bool) ([]float64, []float64) {
	n := min(len(x), len(y))
	columns = max(columns, 1)
	gap := func(v float64) bool { return math.IsNaN(v) || positive && !(v >= MinLog) }
	if n <= 2*columns || !(x1 > x0) {
		for i := range n {
			v := y[i]
			if gap(v) {
				v = math.NaN()
			}
			dx, dy = append(dx, x[i]), append(dy, v)
		}
		return dx, dy
	}
	scale := float64(columns) / (x1 - x0)
	col := func(v float64) int {
		c := (v - x0) * scale
		switch {
		case c < 0:
			return 0
		case c >= float64(columns):
			return columns - 1
		}
		return int(c)
	}
	emit := func(i int) {
		if k := len(dx); k > 0 && dx[k-1] == x[i] && dy[k-1] == y[i] {
			return // same point twice (min == max, or an endpoint)
		}
		dx, dy = append(dx, x[i]), append(dy, y[i])
	}
	// A bucket is the part of one gap-free run that falls in one column.
	var (
		inRun          bool // a run is open
		runStart       int  // index of the run's first point
		c              int  // column of the open bucket
		lo, hi, last   int  // indices of the bucket's min, max and last point
		emittedSinceNa bool
	)
	flush := func(runEnds bool) {
		a, b := lo, hi
		if b < a {
			a, b = b, a
		}
		if runStart < a && col(x[runStart]) == c {
			emit(runStart)
		}
		emit(a)
		emit(b)
		if runEnds && last > b {
			emit(last)
		}
	}
	for i := range n {
		v := y[i]
		if gap(v) {
			if inRun {
				flush(true)
				inRun = false
				emittedSinceNa = true
			}
			if emittedSinceNa {
				dx, dy = append(dx, x[i]), append(dy, math.NaN())
				emittedSinceNa = false
			}
			continue
		}
		ci := col(x[i])
		switch {
		case !inRun:
			inRun, runStart, c, lo, hi = true, i, ci, i, i
		case ci != c:
			flush(false)
			c, lo, hi = ci, i, i
		default:
			if v < y[lo] {
				lo = i
			}
			if v > y[hi] {
				hi = i
			}
		}
		last = i
	}
	if inRun {
		flush(true)
	}
	return dx, dy
}
