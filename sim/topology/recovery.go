package topology

import (
	"math"
	"time"
)

// Verdicts on a fault.
const (
	// VerdictRecovered: goodput came back to the threshold after the fault
	// ended and stayed there.
	VerdictRecovered = "recovered"
	// VerdictLockedIn: goodput had not come back by the end of the run (or
	// the next fault): the system stayed down after its trigger was gone.
	VerdictLockedIn = "locked_in"
	// VerdictUnaffected: goodput never fell below the threshold.
	VerdictUnaffected = "unaffected"
	// VerdictNoBaseline: the fault starts before any goodput was measured.
	VerdictNoBaseline = "no_baseline"
	// VerdictUndetermined: the run ends too soon after the fault to judge.
	VerdictUndetermined = "undetermined"
)

// Recovery is the verdict on one fault window.
type Recovery struct {
	// Verdict is one of the Verdict constants.
	Verdict string
	// Baseline is the mean goodput (full answers within the deadline, all
	// clients, requests per second) before the fault, after warm-up.
	Baseline float64
	// Threshold is the goodput that counts as recovered.
	Threshold float64
	// Min is the lowest smoothed goodput from the fault's start on.
	Min float64
	// Time is how long after the fault ended goodput came back (0 if
	// unaffected); valid for VerdictRecovered and VerdictUnaffected.
	Time time.Duration
}

// recovery judges the system's recovery from fault f, from the goodput of
// all clients per interval. Goodput is smoothed over one second (or one
// interval, if longer) to tame Poisson noise. The system has recovered when
// a smoothing window after the fault's end starts a run of windows whose
// smoothed goodput stays at or above Threshold times the baseline for the
// whole recovery window (default 5 s); the recovery time is the end of
// that first good window (so goodput averaged over the second before it
// was back), measured from the fault's end. It is locked in if that never
// happens before the end of the run or the next fault's start.
func (r *seriesRecorder) recovery(f *FaultConfig) Recovery {
	m := r.m
	g := r.goodput
	ts := r.ts
	n := len(g)
	cfg := m.cfg.Recovery
	frac := cfg.Threshold
	if frac == 0 {
		frac = 0.9
	}
	win := cfg.Window
	if win == 0 {
		win = 5 * time.Second
	}
	k := max(int(time.Second/r.interval), 1)             // smoothing, intervals
	stable := max(int((win+r.interval-1)/r.interval), 1) // stability, intervals
	start, end := int64(f.Start), int64(f.End)
	if f.Kind == CacheFlushFault {
		end = start
	}
	horizon := int64(m.end)
	for _, o := range m.cfg.Faults {
		if s := int64(o.Start); s > end && s < horizon {
			horizon = s
		}
	}
	var rec Recovery
	// Baseline: intervals after warm-up that end by the fault's start.
	sum, cnt := 0.0, 0
	for i := 0; i < n; i++ {
		if ts.Start(i) >= int64(m.warmup) && ts.End(i) <= start {
			sum += g[i]
			cnt++
		}
	}
	if cnt == 0 {
		rec.Verdict = VerdictNoBaseline
		return rec
	}
	rec.Baseline = sum / float64(cnt)
	rec.Threshold = frac * rec.Baseline
	// last is the last index whose smoothing window ends by the horizon.
	last := -1
	for i := 0; i+k <= n && ts.End(i+k-1) <= horizon; i++ {
		last = i
	}
	smooth := func(i int) float64 {
		s := 0.0
		for j := i; j < i+k; j++ {
			s += g[j]
		}
		return s / float64(k)
	}
	rec.Min = math.Inf(1)
	first := -1 // first index at or after the fault's start
	for i := 0; i <= last; i++ {
		if ts.Start(i) < start {
			continue
		}
		if first < 0 {
			first = i
		}
		rec.Min = min(rec.Min, smooth(i))
	}
	if first < 0 {
		rec.Min = 0
		rec.Verdict = VerdictUndetermined
		return rec
	}
	if rec.Min >= rec.Threshold {
		rec.Verdict = VerdictUnaffected
		return rec
	}
	// The first index after the fault's end that starts a run of `stable`
	// good windows.
	run := 0
	for i := first; i <= last; i++ {
		if ts.Start(i) < end {
			continue
		}
		if smooth(i) < rec.Threshold {
			run = 0
			continue
		}
		run++
		if run == stable {
			rec.Verdict = VerdictRecovered
			// Report the end of the first good smoothing window: goodput
			// averaged over the second before that instant was back.
			rec.Time = time.Duration(ts.End(i-stable+k) - end)
			return rec
		}
	}
	if run > 0 && ts.End(last) >= int64(m.end) {
		// Good until the run ended, but not for a whole recovery window.
		rec.Verdict = VerdictUndetermined
		return rec
	}
	rec.Verdict = VerdictLockedIn
	return rec
}
