package outlier

import (
	"fmt"
	"math"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// host is the per-host state.
type host struct {
	ejected     bool
	ejectedAt   time.Duration
	ejectedFor  time.Duration
	unejectedAt time.Duration // valid once ejections > 0 and !ejected
	backoff     int
	ejections   int
	consecutive int // consecutive failures
	calls       int // calls recorded in the current interval
	successes   int // of which successes
}

// Detector is outlier detection for one cluster of a fixed number of hosts,
// indexed from 0. Create it with New. It is not safe for concurrent use.
type Detector struct {
	cfg      Config
	hosts    []host
	ejected  int
	nextTick time.Duration
	rates    []float64 // scratch for success-rate sweeps
	idx      []int
}

// New returns a detector for a cluster of n hosts, none ejected, whose
// first sweep is due at now + cfg.Interval. It returns an error wrapping
// ErrInvalidConfig for a bad Config or n outside [1, 1<<20].
func New(cfg Config, n int, now time.Duration) (*Detector, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("outlier.New: %w", err)
	}
	if n < 1 || n > maxHosts {
		return nil, fmt.Errorf("outlier.New: %w: %d hosts not in [1, %d]", ErrInvalidConfig, n, maxHosts)
	}
	return &Detector{
		cfg:      cfg,
		hosts:    make([]host, n),
		nextTick: now + cfg.Interval,
		rates:    make([]float64, 0, n),
		idx:      make([]int, 0, n),
	}, nil
}

// Config returns the detector's configuration.
func (d *Detector) Config() Config { return d.cfg }

// Hosts returns the number of hosts in the cluster.
func (d *Detector) Hosts() int { return len(d.hosts) }

// Ejected reports whether host i is ejected: the balancer must not pick it.
// Like every method taking a host index, it panics unless 0 <= i < Hosts().
func (d *Detector) Ejected(i int) bool { return d.hosts[i].ejected }

// EjectedCount returns the number of ejected hosts.
func (d *Detector) EjectedCount() int { return d.ejected }

// Ejections returns how many times host i has been ejected.
func (d *Detector) Ejections(i int) int { return d.hosts[i].ejections }

// Backoff returns host i's ejection backoff: its next ejection lasts
// min(BaseEjectionTime * (Backoff+1), MaxEjectionTime).
func (d *Detector) Backoff(i int) int { return d.hosts[i].backoff }

// NextTickAt returns the instant the next interval sweep is due; the caller
// calls Tick then.
func (d *Detector) NextTickAt() time.Duration { return d.nextTick }

// NextUnejectAt returns the instant of the sweep at which the next
// un-ejection will happen, assuming sweeps run at NextTickAt and every
// Interval after; ok is false if no host is ejected.
func (d *Detector) NextUnejectAt() (at time.Duration, ok bool) {
	if d.ejected == 0 {
		return 0, false
	}
	due := time.Duration(math.MaxInt64)
	for i := range d.hosts {
		if h := &d.hosts[i]; h.ejected {
			due = min(due, h.ejectedAt+h.ejectedFor)
		}
	}
	if due <= d.nextTick {
		return d.nextTick, true
	}
	k := (due - d.nextTick + d.cfg.Interval - 1) / d.cfg.Interval
	return d.nextTick + k*d.cfg.Interval, true
}

// Record feeds the outcome of one call to host i at instant now, and
// returns the ejection (or overflow) it caused, if any. Local refusals and
// results for an ejected host are ignored.
func (d *Detector) Record(now time.Duration, i int, o policies.Outcome) (Event, bool) {
	h := &d.hosts[i]
	if o.IsLocal() || h.ejected {
		return Event{}, false
	}
	h.calls++
	if !o.IsFailure() {
		h.successes++
		h.consecutive = 0
		return Event{}, false
	}
	h.consecutive++
	if h.consecutive < d.cfg.Consecutive5xx || d.cfg.EnforcingConsecutive5xx == 0 {
		return Event{}, false
	}
	h.consecutive = 0
	return d.eject(now, i, Consecutive5xx, d.cfg.EnforcingConsecutive5xx), true
}

// Tick runs the interval sweep due at NextTickAt, if now has reached it:
// it returns the hosts whose ejection time has elapsed to the balancing
// set, runs success-rate detection over the interval just ended, then
// decrements the backoff of each host that is not ejected and has been
// back for at least one Interval, and schedules the next sweep at
// now + Interval. It appends the events to dst and returns the extended
// slice; before NextTickAt it returns dst unchanged.
//
// The order is Envoy's (DetectorImpl::onIntervalTimer in
// source/common/upstream/outlier_detection_impl.cc): a host re-ejected by
// success rate at the sweep after its return keeps its backoff and is
// ejected for longer, instead of having it lowered first.
func (d *Detector) Tick(now time.Duration, dst []Event) []Event {
	if now < d.nextTick {
		return dst
	}
	d.nextTick = now + d.cfg.Interval
	for i := range d.hosts {
		h := &d.hosts[i]
		if h.ejected && now-h.ejectedAt >= h.ejectedFor {
			h.ejected = false
			h.unejectedAt = now
			h.consecutive = 0
			d.ejected--
			dst = append(dst, Event{Host: i, Kind: Unejected, Reason: EjectionTimeElapsed, At: now,
				Backoff: h.backoff, Ejections: h.ejections})
		}
	}
	dst = d.successRate(now, dst)
	for i := range d.hosts {
		h := &d.hosts[i]
		h.calls, h.successes = 0, 0
		if !h.ejected && h.backoff > 0 && now-h.unejectedAt >= d.cfg.Interval {
			h.backoff--
		}
	}
	return dst
}

// successRate ejects the hosts whose success rate in the interval just
// ended is below mean - factor*stdev, as Envoy's success-rate detector.
func (d *Detector) successRate(now time.Duration, dst []Event) []Event {
	if d.cfg.EnforcingSuccessRate == 0 {
		return dst
	}
	d.rates, d.idx = d.rates[:0], d.idx[:0]
	var sum float64
	for i := range d.hosts {
		h := &d.hosts[i]
		if h.ejected || h.calls < d.cfg.SuccessRateRequestVolume {
			continue
		}
		r := 100 * float64(h.successes) / float64(h.calls)
		d.rates = append(d.rates, r)
		d.idx = append(d.idx, i)
		sum += r
	}
	n := len(d.rates)
	if n < d.cfg.SuccessRateMinimumHosts {
		return dst
	}
	mean := sum / float64(n)
	var v float64
	for _, r := range d.rates {
		v += (r - mean) * (r - mean)
	}
	threshold := mean - float64(d.cfg.SuccessRateStdevFactor)/1000*math.Sqrt(v/float64(n))
	for k, r := range d.rates {
		if r < threshold {
			dst = append(dst, d.eject(now, d.idx[k], SuccessRate, d.cfg.EnforcingSuccessRate))
		}
	}
	return dst
}

// eject ejects host i if enforcement and MaxEjectionPercent allow, and
// returns the Ejected or Overflow event.
func (d *Detector) eject(now time.Duration, i int, r Reason, enforcing int) Event {
	h := &d.hosts[i]
	ev := Event{Host: i, Kind: Overflow, Reason: r, At: now, Backoff: h.backoff, Ejections: h.ejections}
	if enforcing < 100 && d.cfg.Rand.IntN(100) >= enforcing {
		return ev
	}
	if !d.mayEject() {
		return ev
	}
	if time.Duration(h.backoff)*d.cfg.BaseEjectionTime < d.cfg.MaxEjectionTime+d.cfg.BaseEjectionTime {
		h.backoff++
	}
	h.ejected = true
	h.ejectedAt = now
	h.ejectedFor = d.cfg.ejectionTime(h.backoff)
	h.ejections++
	d.ejected++
	ev.Kind, ev.EjectedFor, ev.Backoff, ev.Ejections = Ejected, h.ejectedFor, h.backoff, h.ejections
	return ev
}

// mayEject reports whether one more host may be ejected:
// 100*(ejected+1)/hosts <= MaxEjectionPercent, or none is ejected and
// AlwaysEjectOneHost is set. Integer arithmetic, no rounding.
func (d *Detector) mayEject() bool {
	if 100*(d.ejected+1) <= d.cfg.MaxEjectionPercent*len(d.hosts) {
		return true
	}
	return d.ejected == 0 && d.cfg.AlwaysEjectOneHost
}
