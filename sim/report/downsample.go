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
	if n <= 2*columns || !(x1 > x0) {
		for i := range n {
			v := y[i]
			if isGap(v, positive) {
				v = math.NaN()
			}
			dx, dy = append(dx, x[i]), append(dy, v)
		}
		return dx, dy
	}
	d := downsampler{dx: dx, dy: dy, x: x, y: y, x0: x0, scale: float64(columns) / (x1 - x0), columns: columns}
	for i := range n {
		v := y[i]
		if isGap(v, positive) {
			d.gap(i)
			continue
		}
		// Point i joins the open bucket or closes it and opens the next,
		// inline: a call per point cost a third of the time.
		ci := d.col(x[i])
		switch {
		case !d.inRun:
			d.start(i, ci)
			continue
		case ci != d.c:
			d.flush(false)
			d.c, d.lo, d.hi = ci, i, i
		default:
			if v < y[d.lo] {
				d.lo = i
			}
			if v > y[d.hi] {
				d.hi = i
			}
		}
		d.last = i
	}
	if d.inRun {
		d.flush(true)
	}
	return d.dx, d.dy
}

// isGap reports whether v is a gap: NaN, or with positive, below MinLog.
func isGap(v float64, positive bool) bool { return math.IsNaN(v) || positive && !(v >= MinLog) }

// downsampler is downsample's state. A bucket is the part of one gap-free
// run that falls in one column.
type downsampler struct {
	dx, dy, x, y   []float64
	x0, scale      float64
	columns        int
	inRun          bool // a run is open
	runStart       int  // index of the run's first point
	c              int  // column of the open bucket
	lo, hi, last   int  // indices of the bucket's min, max and last point
	emittedSinceNa bool
}

// col is the column of abscissa v, clamped to the plot.
func (d *downsampler) col(v float64) int {
	c := (v - d.x0) * d.scale
	switch {
	case c < 0:
		return 0
	case c >= float64(d.columns):
		return d.columns - 1
	}
	return int(c)
}

func (d *downsampler) emit(i int) {
	if k := len(d.dx); k > 0 && d.dx[k-1] == d.x[i] && d.dy[k-1] == d.y[i] {
		return // same point twice (min == max, or an endpoint)
	}
	d.dx, d.dy = append(d.dx, d.x[i]), append(d.dy, d.y[i])
}

// flush emits the open bucket: the run's first point if it is in the
// bucket, the min and max in x order, and, when the run ends, its last.
func (d *downsampler) flush(runEnds bool) {
	a, b := d.lo, d.hi
	if b < a {
		a, b = b, a
	}
	if d.runStart < a && d.col(d.x[d.runStart]) == d.c {
		d.emit(d.runStart)
	}
	d.emit(a)
	d.emit(b)
	if runEnds && d.last > b {
		d.emit(d.last)
	}
}

// gap closes the open run at point i, a gap, with one NaN point.
func (d *downsampler) gap(i int) {
	if d.inRun {
		d.flush(true)
		d.inRun = false
		d.emittedSinceNa = true
	}
	if d.emittedSinceNa {
		d.dx, d.dy = append(d.dx, d.x[i]), append(d.dy, math.NaN())
		d.emittedSinceNa = false
	}
}

// start opens a run, and its first bucket (column ci), at point i.
func (d *downsampler) start(i, ci int) {
	d.inRun, d.runStart, d.c, d.lo, d.hi, d.last = true, i, ci, i, i, i
}
