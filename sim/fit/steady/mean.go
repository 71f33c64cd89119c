package steady

import (
	"fmt"
	"math"
)

// Estimate is a batch-means estimate of a steady-state mean, in the unit
// of the values it was computed from.
type Estimate struct {
	// Mean is the mean of the batch means (of the values used).
	Mean float64
	// StdErr is the standard error of Mean: the standard deviation of the
	// batch means over sqrt(Batches).
	StdErr float64
	// Batches is how many batches StdErr was computed from.
	Batches int
}

// Batch counts: Mean uses maxBatches batches when each can hold at least
// minBatchSize values, else minBatches (Schmeiser 1982: 10 to 30 batches
// keep the t-quantile small while the batches stay long enough to be
// nearly independent).
const (
	minBatches   = 10
	maxBatches   = 20
	minBatchSize = 10
)

// Mean is the batch-means mean of values[start:end] with its standard
// error, from 20 batches when there are at least 200 values, 10 when there
// are at least 10, else one batch per value. Batches are of equal size;
// the n mod batches values left over are dropped from the start of the
// window (the end of a run is the steadier part). It needs at least 2
// values, all finite, and 0 <= start < end <= len(values).
func Mean(values []float64, start, end int) (Estimate, error) {
	if start < 0 || end > len(values) || start >= end {
		return Estimate{}, fmt.Errorf("steady: window [%d, %d) is not inside %d values", start, end, len(values))
	}
	w := values[start:end]
	if len(w) < 2 {
		return Estimate{}, fmt.Errorf("steady: window [%d, %d) has %d value, need at least 2", start, end, len(w))
	}
	if err := checkFinite(w); err != nil {
		return Estimate{}, err
	}
	b := len(w)
	switch {
	case len(w) >= maxBatches*minBatchSize:
		b = maxBatches
	case len(w) >= minBatches:
		b = minBatches
	}
	size := len(w) / b
	w = w[len(w)-b*size:]
	means := make([]float64, b)
	sum := 0.0
	for j := range means {
		s := 0.0
		for _, v := range w[j*size : (j+1)*size] {
			s += v
		}
		means[j] = s / float64(size)
		sum += means[j]
	}
	mean := sum / float64(b)
	ss := 0.0
	for _, m := range means {
		ss += (m - mean) * (m - mean)
	}
	se := math.Sqrt(ss / float64(b-1) / float64(b))
	return Estimate{Mean: mean, StdErr: se, Batches: b}, nil
}
