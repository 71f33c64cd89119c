package topology

import (
	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/metrics"
)

// svcCounter indexes a service's event counters.
type svcCounter uint8

const (
	cOffered      svcCounter = iota // attempts that reached an instance
	cAdmitted                       // admitted to a worker or the queue
	cRejected                       // refused: queue full or no instance up
	cDropped                        // dropped for its deadline: at dequeue, or on expiry
	cCompleted                      // handler finished (any status)
	cOK                             // completed with a full answer
	cDegraded                       // completed without a non-critical dependency
	cError                          // completed with an injected error
	cDepFailed                      // failed because a critical dependency failed
	cKilled                         // lost in a crash
	cTimedOut                       // attempts to this service that their caller timed out
	cWasted                         // completed for a caller that had stopped waiting
	cShed                           // refused by load shedding (by priority)
	cLimited                        // refused by the adaptive concurrency limit
	cQueueDropped                   // dropped from the queue by CoDel or adaptive LIFO
	cCancelled                      // stopped by cancellation: a handler cut short, or a queued request whose caller was gone
	numSvcCounters
)

// clCounter indexes a client's counters.
type clCounter uint8

const (
	kSent     clCounter = iota // user requests sent
	kGood                      // full answers within the deadline (goodput)
	kDegraded                  // degraded answers within the deadline
	kLate                      // answers after the deadline
	kExpired                   // the user gave up at the deadline
	kError                     // failed: error or dependency failed
	kRejected                  // failed: rejected
	kDropped                   // failed: dropped for its deadline
	numClCounters
)

// siteCounter indexes a call site's counters.
type siteCounter uint8

const (
	sCalls          siteCounter = iota // logical calls started
	sAttempts                          // attempts sent (first tries and retries)
	sRetries                           // retries sent
	sOK                                // attempts answered successfully
	sTimeouts                          // attempts timed out
	sErrors                            // attempts answered with an error
	sRejected                          // attempts rejected
	sDropped                           // attempts dropped for their deadline
	sCacheHits                         // calls answered by the cache
	sRetryDenied                       // failed attempts the retry policy did not retry
	sFailed                            // logical calls that failed in the end
	sShortCircuited                    // refused by an open breaker
	sRetryIntoOpen                     // retries refused by an open breaker (breaker inside retry)
	sBulkheadFull                      // refused: no bulkhead slot in time
	sFallback                          // failed calls answered by the fallback
	sBreakerOpened                     // breaker transitions to open
	sKilled                            // calls skipped by a kill switch
	sFallbackFailed                    // fallbacks that failed too
	sHedges                            // hedged copies sent (every copy of a hedged call but its first)
	sHedgeLost                         // hedged copies cancelled because another copy decided the call
	numSiteCounters
)

// svcStats is one service's statistics, over all its instances.
type svcStats struct {
	win, iv               [numSvcCounters]uint64 // the window's and the current interval's counts
	sojourn, wait, hold   metrics.Histogram      // window: arrival to response, in the queue, holding a worker
	ivSojourn             intervalHistogram      // the interval's sojourns; feeds sojourn
	inSystem, queue, busy metrics.Count          // live requests only
	// workers is the pool: the workers (or slots) of the instances that
	// are up, less those a workers fault removed (service.syncWorkers).
	workers metrics.Count
	// expired counts requests whose deadline passed while they wait in an
	// AtDequeue queue: they hold a place until dropped at the head.
	expired              metrics.Count
	wastedNs, ivWastedNs int64 // worker-nanoseconds of wasted work
	delayed              uint64
	warmArea, ivArea     [numAreas]float64
}

// Indexes of svcStats.areas.
const (
	aInSystem = iota
	aQueue
	aBusy
	aExpired
	aWorkers
	numAreas
)

func (st *svcStats) inc(m *Model, now engine.Time, k svcCounter) {
	st.iv[k]++
	if now >= m.warmup {
		st.win[k]++
	}
}

func (st *svcStats) areas(now engine.Time) [numAreas]float64 {
	t := int64(now)
	return [numAreas]float64{st.inSystem.Area(t), st.queue.Area(t), st.busy.Area(t), st.expired.Area(t), st.workers.Area(t)}
}

// clStats is one client's statistics.
type clStats struct {
	win, iv   [numClCounters]uint64
	latency   metrics.Histogram // window: answered requests, from intended send time
	ivLatency intervalHistogram // the interval's answered requests; feeds latency
	// failed and ivFailed are the same as latency and ivLatency for the
	// requests that got no answer (a failure, or the user giving up): the
	// latency to every outcome is latency and failed together, merged
	// when read, so that an answered request is recorded once.
	failed   metrics.Histogram
	ivFailed intervalHistogram
	// inFlight is this client's requests sent and not yet answered;
	// peak the largest inFlight after the warm-up.
	inFlight, peak int64
	// cohortGood counts the requests sent in the window that got a full
	// answer in time: the numerator of the goodput share.
	cohortGood uint64
}

func (st *clStats) inc(m *Model, now engine.Time, k clCounter) {
	st.iv[k]++
	if now >= m.warmup {
		st.win[k]++
	}
}

// siteStats is one call site's statistics.
type siteStats struct {
	win, iv [numSiteCounters]uint64
	denied  [8]uint64 // window: retries refused, by retry.Reason
}

func (st *siteStats) inc(m *Model, now engine.Time, k siteCounter) {
	st.iv[k]++
	if now >= m.warmup {
		st.win[k]++
	}
}
