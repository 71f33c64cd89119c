package promql

// Limits bound an evaluation: how much it stores, and how many samples
// its expressions visit.
type Limits struct {
	// MaxSeries bounds the series, input and recorded (ALERTS included).
	MaxSeries int
	// MaxPoints bounds the points stored, input and recorded.
	MaxPoints int
	// MaxCost bounds the samples the selectors visit over the whole
	// evaluation (a range selector visits every sample in its window at
	// every evaluation), and the samples the operations produce.
	MaxCost int64
}

// DefaultLimits are generous for a run in the page: 100 000 series, 20
// million points, 500 million samples visited.
var DefaultLimits = Limits{MaxSeries: 100_000, MaxPoints: 20_000_000, MaxCost: 500_000_000}

func (l Limits) orDefault() Limits {
	if l.MaxSeries <= 0 {
		l.MaxSeries = DefaultLimits.MaxSeries
	}
	if l.MaxPoints <= 0 {
		l.MaxPoints = DefaultLimits.MaxPoints
	}
	if l.MaxCost <= 0 {
		l.MaxCost = DefaultLimits.MaxCost
	}
	return l
}
