// Package outlier implements Envoy's outlier detection: passive, per-host
// ejection of the hosts of an upstream cluster that fail unlike the others,
// as a pure state machine with explicit time that feeds a load balancer.
//
// # Source
//
// Envoy's outlier detection (config.cluster.v3.OutlierDetection and the
// "Outlier detection" architecture overview; behaviour as of Envoy 1.31+).
// Config field names are the Go spelling of Envoy's: consecutive_5xx,
// interval, base_ejection_time, max_ejection_time, max_ejection_percent,
// always_eject_one_host, enforcing_consecutive_5xx, enforcing_success_rate,
// success_rate_minimum_hosts, success_rate_request_volume,
// success_rate_stdev_factor. DefaultConfig uses the numbers of the Envoy
// example in «Устойчивость: circuit breaker, retry, bulkhead, backpressure,
// деградация» ("Resilience: circuit breaker, retry, bulkhead, backpressure,
// degradation"), section 8 (consecutive_5xx 5, interval 10 s, base_ejection_time 30 s,
// max_ejection_percent 50) and Envoy's defaults for the rest
// (max_ejection_time 300 s, enforcing 100 %, success rate over at least 5
// hosts with 100 requests each in the interval, stdev factor 1900).
//
// The resilience article calls outlier detection "the real circuit breaker"
// (section 8; section 4 compares it with a breaker): it removes
// one bad host from the balancing set instead of opening the circuit for a
// whole upstream, and max_ejection_percent keeps it from killing the
// cluster: if every host looks sick, the problem is probably not the hosts.
//
// # Algorithm
//
// Record feeds the outcome of each call to host i. Local refusals
// (policies.Outcome.IsLocal) are ignored; policies.Outcome.IsFailure
// outcomes (Error, Timeout, Rejected) count as 5xx (Envoy maps local-origin
// errors such as timeouts to 5xx unless split_external_local_origin_errors
// is set); anything else is a success and resets the host's consecutive
// count. Results for a host that is currently ejected are ignored.
//
//   - Consecutive 5xx, inline: when a host's count reaches Consecutive5xx,
//     the count is reset and the host is ejected at once (with probability
//     EnforcingConsecutive5xx %).
//   - Success rate, at each interval sweep: among the non-ejected hosts with
//     at least SuccessRateRequestVolume calls in the interval just ended, if
//     there are at least SuccessRateMinimumHosts of them, a host whose
//     success rate is below mean - (SuccessRateStdevFactor/1000) * stdev
//     (population standard deviation) is ejected (with probability
//     EnforcingSuccessRate %). Hosts are examined in index order.
//
// An ejection is allowed only if 100 * (ejected+1) / hosts <=
// MaxEjectionPercent, or if no host is ejected and AlwaysEjectOneHost is
// set; a refused ejection is reported as an Overflow event. The host's
// ejection backoff b then grows by one (while b * base_ejection_time <
// max_ejection_time + base_ejection_time), and it stays ejected for
// min(BaseEjectionTime * b, MaxEjectionTime): 30 s, 60 s, 90 s ... 300 s.
//
// Un-ejection is not timed to the ejection: it happens at the first
// interval sweep at which the ejection time has elapsed. At each sweep,
// after success-rate detection, a host that is not ejected and has been
// back for at least one Interval has its backoff decremented by one, so a
// host that stays healthy earns back short ejections, while one re-ejected
// at the sweep after its return is ejected for longer. This is Envoy's
// order (DetectorImpl::onIntervalTimer in
// source/common/upstream/outlier_detection_impl.cc).
//
// # Time
//
// The detector owns no timer. The first sweep is due Interval after the
// instant given to New; NextTickAt says when the next one is due and the
// caller calls Tick then; after a sweep at instant t the next is due at
// t + Interval (Envoy re-arms its timer the same way). NextUnejectAt gives
// the sweep at which the next un-ejection will happen if ticks come on
// time. Events (ejections, un-ejections, overflows) are returned as values;
// Tick appends them to a caller-supplied slice to avoid allocation.
//
// Randomness, needed only when an enforcing percentage is strictly between
// 0 and 100, comes from Config.Rand, owned by the caller. A Detector is not
// safe for concurrent use.
package outlier
