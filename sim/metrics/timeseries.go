package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"
)

// TimeSeries is a columnar, fixed-interval time series: one time axis of
// consecutive intervals [start, end) in int64 nanoseconds, shared by
// columns identified by (entity, metric), each with a unit, kept in
// registration order. The simulation model appends an interval at each
// interval boundary and sets every column's value for it.
//
// A column not set in an interval holds NaN there ("no value", written as
// an empty field by WriteCSV); so does a column registered after some
// intervals were appended, for those intervals.
//
// A TimeSeries is not safe for concurrent use.
type TimeSeries struct {
	interval time.Duration
	starts   []int64
	ends     []int64
	cols     []*Column
	byKey    map[columnKey]*Column // lookup only; never iterated
}

type columnKey struct{ entity, metric string }

// Column is one column of a TimeSeries: the values of one metric of one
// entity, one per interval. A *Column handle comes from
// TimeSeries.Column and stays valid for the life of the series.
type Column struct {
	entity, metric, unit string
	values               []float64 // one per interval of the series
}

// NewTimeSeries returns an empty series whose intervals are nominally
// interval long (the last one may be shorter, when a run ends between two
// boundaries). interval must be positive.
func NewTimeSeries(interval time.Duration) (*TimeSeries, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("metrics: NewTimeSeries: interval %v is not positive", interval)
	}
	return &TimeSeries{interval: interval, byKey: make(map[columnKey]*Column)}, nil
}

// Interval returns the nominal interval length.
func (ts *TimeSeries) Interval() time.Duration { return ts.interval }

// Column registers the column (entity, metric) with the given unit, such
// as ("server", "throughput", "req/s"), and returns its handle; columns keep
// their registration order. Registering the same (entity, metric) again
// returns the same handle, or an error if the unit differs. entity and
// metric must not be empty; unit may be (for a dimensionless count).
// All three must be valid UTF-8 without control characters (such as a
// newline), so that every CSV row is one line and reads back unchanged.
func (ts *TimeSeries) Column(entity, metric, unit string) (*Column, error) {
	if entity == "" || metric == "" {
		return nil, fmt.Errorf("metrics: TimeSeries.Column(%q, %q): empty entity or metric", entity, metric)
	}
	for _, s := range [...]string{entity, metric, unit} {
		if !validName(s) {
			return nil, fmt.Errorf("metrics: TimeSeries.Column(%q, %q, %q): invalid UTF-8 or control character in %q",
				entity, metric, unit, s)
		}
	}
	k := columnKey{entity, metric}
	if c, ok := ts.byKey[k]; ok {
		if c.unit != unit {
			return nil, fmt.Errorf("metrics: TimeSeries.Column(%q, %q): unit %q, already registered with %q",
				entity, metric, unit, c.unit)
		}
		return c, nil
	}
	c := &Column{entity: entity, metric: metric, unit: unit, values: make([]float64, len(ts.starts))}
	for i := range c.values {
		c.values[i] = math.NaN()
	}
	ts.cols = append(ts.cols, c)
	ts.byKey[k] = c
	return c, nil
}

// validName reports whether s is valid UTF-8 without control characters.
func validName(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// Find returns the column registered as (entity, metric), or nil.
func (ts *TimeSeries) Find(entity, metric string) *Column {
	return ts.byKey[columnKey{entity, metric}]
}

// Columns returns the columns in registration order, in a new slice.
func (ts *TimeSeries) Columns() []*Column {
	return append([]*Column(nil), ts.cols...)
}

// AppendInterval appends the interval [start, end) (nanoseconds) and makes
// it the current one: every column holds NaN for it until set. The
// interval must not be empty, must not be longer than Interval(), and
// must not start before the previous one ended.
func (ts *TimeSeries) AppendInterval(start, end int64) error {
	if end <= start {
		return fmt.Errorf("metrics: AppendInterval(%d, %d): empty interval", start, end)
	}
	if end-start > int64(ts.interval) {
		return fmt.Errorf("metrics: AppendInterval(%d, %d): longer than the interval %v",
			start, end, ts.interval)
	}
	if n := len(ts.ends); n > 0 && start < ts.ends[n-1] {
		return fmt.Errorf("metrics: AppendInterval(%d, %d): starts before the previous end %d",
			start, end, ts.ends[n-1])
	}
	ts.starts = append(ts.starts, start)
	ts.ends = append(ts.ends, end)
	for _, c := range ts.cols {
		c.values = append(c.values, math.NaN())
	}
	return nil
}

// Reserve makes room for n more intervals in the time axis and in every
// column registered so far, so that a caller who knows how many intervals
// a run has appends them without growing (and copying) any slice. It
// changes nothing else; n <= 0 does nothing.
func (ts *TimeSeries) Reserve(n int) {
	if n <= 0 {
		return
	}
	ts.starts = slices.Grow(ts.starts, n)
	ts.ends = slices.Grow(ts.ends, n)
	for _, c := range ts.cols {
		c.values = slices.Grow(c.values, n)
	}
}

// Len returns the number of intervals.
func (ts *TimeSeries) Len() int { return len(ts.starts) }

// Start returns the start instant of interval i (nanoseconds).
func (ts *TimeSeries) Start(i int) int64 { return ts.starts[i] }

// End returns the end instant of interval i (nanoseconds, exclusive).
func (ts *TimeSeries) End(i int) int64 { return ts.ends[i] }

// errNoInterval is the panic value of Column.Set before any interval.
var errNoInterval = errors.New("metrics: Column.Set before the first AppendInterval")

// Set sets the column's value for the current (last appended) interval,
// replacing any earlier value. NaN means "no value". Calling Set before the
// first AppendInterval is a programming error and panics.
func (c *Column) Set(value float64) {
	n := len(c.values)
	if n == 0 {
		panic(errNoInterval)
	}
	c.values[n-1] = value
}

// Entity returns the column's entity, such as "server".
func (c *Column) Entity() string { return c.entity }

// Metric returns the column's metric, such as "throughput".
func (c *Column) Metric() string { return c.metric }

// Unit returns the column's unit, such as "req/s".
func (c *Column) Unit() string { return c.unit }

// Len returns the number of values, which is the series' Len.
func (c *Column) Len() int { return len(c.values) }

// Value returns the value for interval i (NaN if never set).
func (c *Column) Value(i int) float64 { return c.values[i] }

// Values returns the values, one per interval. The slice is the column's
// own storage: the caller must not modify it, and it is valid only until
// the next AppendInterval.
func (c *Column) Values() []float64 { return c.values }
