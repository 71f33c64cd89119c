package topology

import (
	"fmt"
	"time"
)

// verdict decides from the tested windows: the end window decides whether
// the system ended down; the windows and in-flight samples before it say
// whether it relapsed, when it came back, or whether it was affected.
func (j *judge) verdict() {
	s, e := &j.s, &j.rec.Evidence
	end := len(j.deficits) - 1 // the end window
	ei := j.fs + end
	var x uint64
	for t := ei; t < ei+j.k; t++ {
		x += s.good[t]
	}
	ns := float64(s.end[j.last] - s.start[ei])
	e.EndStart, e.EndEnd = time.Duration(s.start[ei]), time.Duration(s.end[j.last])
	e.EndGood = x
	e.EndExpected = j.rec.Threshold * ns / 1e9
	e.PValue = j.pValue(x, ns)
	e.EndCritical = j.critical(ns)
	e.InFlightAtEnd = s.inFlight[j.last]
	lastAbove := -1
	for i := j.fs; i <= j.last; i++ {
		e.InFlightPeak = max(e.InFlightPeak, s.inFlight[i])
		if s.inFlight[i] > j.band {
			lastAbove = i
		}
	}
	switch {
	case j.deficits[end]:
		j.ended(end)
	case !j.affected(lastAbove):
		j.rec.Verdict = VerdictUnaffected
		j.rec.Reason = fmt.Sprintf("no window showed a goodput deficit and at most %d requests were in flight", e.InFlightPeak)
	case e.InFlightAtEnd > j.band:
		j.rec.Verdict = VerdictUndetermined
		j.rec.Reason = fmt.Sprintf("goodput is back but %d requests are still in flight (band %d): still draining", e.InFlightAtEnd, j.band)
	default:
		j.recovered(lastAbove)
	}
}

// affected reports whether any window from the fault's start on showed a
// deficit, or any in-flight sample left the band.
func (j *judge) affected(lastAbove int) bool {
	if lastAbove >= 0 {
		return true
	}
	for _, d := range j.deficits {
		if d {
			return true
		}
	}
	return false
}

// ended judges a system whose end window shows a deficit: locked in, or
// relapsed if some whole window after the fault's end was back.
func (j *judge) ended(end int) {
	s := &j.s
	first, lastGood := -1, -1
	for w := max(j.fe-j.fs, 0); w < end; w++ {
		i := j.fs + w
		if !j.deficits[w] && s.inFlight[i+j.k-1] <= j.band {
			if first < 0 {
				first = w
			}
			lastGood = w
		}
	}
	e := &j.rec.Evidence
	if first < 0 {
		j.rec.Verdict = VerdictLockedIn
		j.rec.Reason = fmt.Sprintf("goodput never came back: %d full answers in the last %v where %.0f were expected at %.1f/s (p = %.2g), %d requests in flight",
			e.EndGood, e.EndEnd-e.EndStart, e.EndExpected, j.rec.Threshold, e.PValue, e.InFlightAtEnd)
		return
	}
	j.rec.Verdict = VerdictRelapsed
	j.rec.Returned = time.Duration(s.start[j.backFrom(j.fs+first)])
	j.rec.Relapsed = time.Duration(s.end[j.fs+lastGood+j.k-1])
	j.rec.Reason = fmt.Sprintf("goodput came back at %v, collapsed again by %v and stayed down: %d full answers in the last %v where %.0f were expected (p = %.2g), %d requests in flight",
		j.rec.Returned, j.rec.Relapsed, e.EndGood, e.EndEnd-e.EndStart, e.EndExpected, e.PValue, e.InFlightAtEnd)
}

// recovered sets the recovery time: from the fault's end to the later of
// the start of the last stretch of windows with no deficit and the end of
// the last interval whose in-flight count was above the band.
func (j *judge) recovered(lastAbove int) {
	s := &j.s
	back := j.p.faultEnd
	for w := len(j.deficits) - 1; w >= max(j.fe-j.fs, 0); w-- {
		if j.deficits[w] {
			back = max(back, s.start[j.backFrom(j.fs+w+1)])
			break
		}
	}
	if lastAbove >= 0 {
		back = max(back, s.end[lastAbove])
	}
	j.rec.Verdict = VerdictRecovered
	j.rec.Time = time.Duration(back - j.p.faultEnd)
	j.rec.Reason = fmt.Sprintf("goodput back to %.1f/s (%.0f%% of %.1f/s) and requests in flight back to at most %d, %v after it ended",
		j.rec.Threshold, 100*j.p.threshold, j.rec.Baseline, j.band, j.rec.Time)
}

// backFrom returns the first interval from i on (within the window that
// starts at i) whose own goodput reached the threshold: a window with no
// significant deficit can still start with a few intervals of the outage.
func (j *judge) backFrom(i int) int {
	s := &j.s
	for t := i; t < i+j.k && t <= j.last; t++ {
		if float64(s.good[t]) >= j.rec.Threshold*float64(s.end[t]-s.start[t])/1e9 {
			return t
		}
	}
	return i
}
