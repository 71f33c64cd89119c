package topology

import (
	"math"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// The verdict on a fault is a statistical test on counts, decided from the
// run's interval series; it is a pure function of that series, so it can
// be tested on constructed series (judge_test.go) as well as on runs.

// MinExpected is the number of full answers the threshold rate must
// predict in one test window: with fewer, a window of no goodput at all
// would not be significant at the default alpha (P(0) = e^-20 = 2e-9).
const MinExpected = 20

// verdictSeries is the interval series a verdict is decided from.
type verdictSeries struct {
	start, end []int64  // interval bounds, ns
	good       []uint64 // full answers within the deadline, all clients
	inFlight   []int64  // user requests in flight at each interval's end
}

// verdictSpan is what is judged: the fault and the span examined after it.
type verdictSpan struct {
	warmup, faultStart, faultEnd, horizon int64 // ns
	threshold                             float64
	window                                time.Duration
	alpha                                 float64
}

// judge holds the state of one verdict computation.
type judge struct {
	s        verdictSeries
	p        verdictSpan
	rec      Recovery
	baseNs   float64 // baseline span, ns
	k        int     // window length, intervals
	critNs   float64 // window length critX was computed for
	critX    int64   // largest count that is a deficit in a critNs window
	fs, fe   int     // first interval starting at or after the fault's start, end
	last     int     // last interval ending by the horizon
	band     int64
	deficits []bool // deficits[j]: the window starting at interval j
}

// decide returns the verdict on one fault from the series.
func decide(s verdictSeries, p verdictSpan) Recovery {
	j := &judge{s: s, p: p}
	if !j.baseline() {
		j.rec.Verdict = VerdictNoBaseline
		j.rec.Reason = "no goodput was measured before it (warm-up, or no successes)"
		return j.rec
	}
	if !j.span() {
		j.rec.Verdict = VerdictUndetermined
		j.rec.Reason = "the run ends too soon after it for one test window"
		return j.rec
	}
	j.windows()
	j.verdict()
	return j.rec
}

// baseline measures goodput and in-flight before the fault.
func (j *judge) baseline() bool {
	s, e := &j.s, &j.rec.Evidence
	var good uint64
	var maxIF int64
	first := true
	for i := range s.good {
		if s.start[i] < j.p.warmup || s.end[i] > j.p.faultStart {
			continue
		}
		if first {
			e.BaselineStart, first = time.Duration(s.start[i]), false
		}
		e.BaselineEnd = time.Duration(s.end[i])
		good += s.good[i]
		maxIF = max(maxIF, s.inFlight[i])
	}
	j.baseNs = float64(e.BaselineEnd - e.BaselineStart)
	if first || good == 0 {
		return false
	}
	e.BaselineGood = good
	j.rec.Baseline = float64(good) / j.baseNs * 1e9
	j.rec.Threshold = j.p.threshold * j.rec.Baseline
	j.band = 2*maxIF + 10
	e.InFlightBand = j.band
	e.Alpha = j.p.alpha
	// The window: long enough that the threshold expects MinExpected
	// full answers, never shorter than the configured window.
	need := time.Duration(MinExpected / j.rec.Threshold * 1e9)
	e.Window = max(j.p.window, need)
	return true
}

// span finds the intervals of the fault and of the examined span, and the
// window in intervals; false if no whole window fits after the fault.
func (j *judge) span() bool {
	s := &j.s
	j.fs, j.fe, j.last = -1, -1, -1
	for i := range s.good {
		if j.fs < 0 && s.start[i] >= j.p.faultStart {
			j.fs = i
		}
		if j.fe < 0 && s.start[i] >= j.p.faultEnd {
			j.fe = i
		}
		if s.end[i] <= j.p.horizon {
			j.last = i
		}
	}
	if j.fs < 0 || j.last < j.fs {
		return false
	}
	iv := s.end[j.fs] - s.start[j.fs]
	j.k = int((int64(j.rec.Evidence.Window) + iv - 1) / iv)
	j.rec.Min = j.minGoodput(max(int(int64(time.Second)/iv), 1))
	return j.fe >= 0 && j.last-j.k+1 >= j.fe
}

// minGoodput is the lowest goodput over k intervals from the fault's
// start to the last interval, requests per second.
func (j *judge) minGoodput(k int) float64 {
	s := &j.s
	lo := math.Inf(1)
	for i := j.fs; i+k-1 <= j.last; i++ {
		var g uint64
		for t := i; t < i+k; t++ {
			g += s.good[t]
		}
		lo = min(lo, float64(g)/float64(s.end[i+k-1]-s.start[i])*1e9)
	}
	if math.IsInf(lo, 1) {
		return 0
	}
	return lo
}

// windows tests every window that starts at or after the fault's start
// and ends by the horizon.
func (j *judge) windows() {
	n := j.last - j.k + 2 - j.fs
	j.deficits = make([]bool, max(n, 0))
	var g uint64
	for t := j.fs; t < j.fs+j.k-1; t++ {
		g += j.s.good[t]
	}
	for w := range j.deficits {
		i := j.fs + w
		g += j.s.good[i+j.k-1]
		j.deficits[w] = j.deficit(g, j.s.end[i+j.k-1]-j.s.start[i])
		g -= j.s.good[i]
	}
}

// deficit reports whether x full answers in a window of ns nanoseconds
// are significantly fewer than the threshold predicts.
func (j *judge) deficit(x uint64, ns int64) bool {
	if float64(ns) != j.critNs {
		j.critNs = float64(ns)
		j.critX = j.critical(j.critNs)
	}
	return int64(x) <= j.critX
}

// critical returns the largest count that is a deficit in a window of ns
// nanoseconds (-1 if none): pValue is increasing in x, so a binary search
// finds the boundary.
func (j *judge) critical(ns float64) int64 {
	lo, hi := int64(-1), int64(math.Ceil(j.p.threshold*j.rec.Baseline*ns/1e9))
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if j.pValue(uint64(mid), ns) < j.p.alpha {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// pValue is P(X <= x) for the count X of a window of ns nanoseconds under
// the hypothesis that its rate is the threshold. Conditioned on the total
// of the window and the baseline, two Poisson counts split binomially:
// X ~ Binomial(x + B, p0), p0 = r*ns / (r*ns + baseNs), with B the
// baseline's count and r the threshold share (Przyborowski and Wilenski
// 1940; the exact conditional test of two Poisson rates).
func (j *judge) pValue(x uint64, ns float64) float64 {
	r := j.p.threshold
	p0 := r * ns / (r*ns + j.baseNs)
	n := float64(x + j.rec.Evidence.BaselineGood)
	return distuv.Binomial{N: n, P: p0}.CDF(float64(x))
}
