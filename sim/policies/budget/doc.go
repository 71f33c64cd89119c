// Package budget limits retries to a share of the traffic, so that retries
// switch themselves off when everything fails.
//
// Retries help against rare, transient failures; when a dependency is down
// they only multiply the load on it (3 attempts per layer over 3 layers send
// 27 calls to the bottom for one user request) and keep the system in a
// metastable failure after the trigger is gone. A retry budget is insurance
// against that avalanche, not an optimisation of the happy path: when the
// system is healthy there are few retries and enough tokens; when it is
// down there are no successes, the tokens run out and retries stop.
//
// # Token bucket (Bucket)
//
// The source's RetryBudget class, with Finagle's reserve added. Deposits
// are per success, which is neither Finagle's scheme (a deposit per
// request, successful or not: see Finagle below) nor gRPC's retry
// throttling (gRFC A6: each failure withdraws one token, each success
// deposits token_ratio, and retries stop while the tokens are at or below
// half of max_tokens):
//
//   - every success deposits Ratio tokens (default 0.1: about one retry per
//     ten successes), up to Capacity (default 100). The bucket starts full;
//   - every retry withdraws 1 token, and is refused when fewer than 1 token
//     is left;
//   - when the bucket is empty a retry may still draw on a reserve that
//     refills continuously at MinRetriesPerSec tokens per second (default 1),
//     holding at most max(MinRetriesPerSec, 1) tokens. This is Finagle's
//     RetryBudget minRetriesPerSec (RetryBudget(ttl, minRetriesPerSec,
//     percentCanRetry)), which "accommodates clients that have just started
//     issuing requests as well as clients that do not issue many requests";
//     the source's Python class has the min_per_sec parameter but never uses
//     it. Unlike Finagle, whose deposits expire after a ttl (default 10 s),
//     deposits here stay until spent, as in the source's bucket: Capacity
//     bounds how much past success can pay for future retries.
//
// Under a total failure of the dependency there are no deposits, so after
// the initial Capacity tokens are spent the retries fall to
// MinRetriesPerSec: with R requests per second over T seconds, each allowed
// k attempts, the attempts per request fall from k to
// 1 + (Capacity + MinRetriesPerSec*T)/(R*T), and in general the retries
// never exceed Ratio times the successes plus that constant, so the
// amplification is about 1 + Ratio.
//
// The package's tests rerun Marc Brooker's retry-storm simulation (a 5 s
// load spike that leaves a server locked in overload by its clients'
// retries): without a budget 4 runs in 5 stay at zero goodput, with the
// default budget all recover.
//
// Tokens are kept as integers in millionths of a token, so deposits of 0.1
// add up exactly and the bucket's level never drifts with floating-point
// rounding; the reserve's refill keeps its sub-token remainder, so it is exact
// whatever the spacing of the calls.
//
// # Finagle's budget (Finagle)
//
// Finagle's RetryBudget(ttl, minRetriesPerSec, percentCanRetry), defaults
// 10 s, 10 and 0.2, as Finagle builds it on TokenBucket.newLeakyBucket:
//
//   - every request deposits 1000 units (Deposit, once per request, before
//     its first attempt, as Finagle's RetryFilter.apply does), whatever its
//     outcome: an outage does not stop the deposits;
//   - every retry withdraws 1000/percentCanRetry units (5000 by default),
//     and is refused when fewer are available;
//   - deposits and withdrawals are summed over 10 slices of ttl/10, so
//     both expire after about ttl; a slice starts at the first call at
//     least ttl/10 after the previous one started (Finagle's
//     WindowedAdder), so a slice can outlive ttl;
//   - a constant reserve of minRetriesPerSec * ttl (in whole seconds)
//     retries is added to the sum: with the defaults, 100 retries per 10 s.
//
// So over any ttl the retries are at most percentCanRetry times the
// requests plus minRetriesPerSec * ttl. In a full outage at R requests per
// second that is 1 + percentCanRetry + minRetriesPerSec/R attempts per
// request (1.3 at 100 req/s with the defaults, TestFinagleFullOutage),
// where Bucket, with no successes to deposit, falls to
// 1 + (Capacity + MinRetriesPerSec*T)/(R*T) (1.027 over 60 s). Finagle's
// budget keeps a fixed share of retries going whatever happens; Bucket
// switches retries off when nothing succeeds. Finagle is not wired into
// the experiment file format.
//
// # Concurrent-retry budget (Concurrency)
//
// Envoy's form (cluster circuit_breakers thresholds retry_budget): the
// number of retries in flight may not exceed budget_percent (default 20 %)
// of the active requests, where active counts requests and pending requests,
// and the limit never goes below min_retry_concurrency (default 3):
//
//	limit = max(min_retry_concurrency, floor(budget_percent/100 * active))
//
// The caller passes the current active count to TryAcquire and calls
// Release when the retry finishes. This form needs no clock. Its zero
// config (both 0) is refused with ErrInvalidConfig: it would refuse every
// retry, which is what retry MaxAttempts 1 says plainly.
//
// # The Quota interface, and which successes earn
//
// Bucket, AWS and PerCall implement Quota, which the model and package
// wall use for every token kind: CallStarted before a call's first
// attempt, Withdraw(now, outcome of the failed attempt) for each retry or
// hedge, returning whether it may go and a one-byte Receipt of what it
// paid, and Deposit(now, retry, receipt) for each successful attempt.
// Bucket's Config.Earn says which successes deposit: EarnEverySuccess
// (the default, as above) or EarnFirstAttempt (a successful retry
// deposits nothing).
//
// # AWS SDK standard retry quota (AWS)
//
// The AWS SDK for Go v2's retry.Standard over ratelimit.TokenRateLimit
// (github.com/aws/aws-sdk-go-v2: aws/retry/standard.go at commit
// 1489ddb225dc3ff0d1dd273779b2115acb58f71b, aws/ratelimit/token_bucket.go
// and token_rate_limit.go at 843b02ad6f819c6152f467ce07dd456d971eca23,
// aws/retry/middleware.go's handleAttempt): a quota of 500 tokens
// (DefaultRetryRateTokens), full at the start; a retry costs 5
// (DefaultRetryCost), or 10 (DefaultRetryTimeoutCost) when the failed
// attempt timed out, and is refused when fewer tokens are left; every
// successful attempt puts back 1 (DefaultNoRetryIncrement, the attempt
// token), and a successful retry also puts back its cost (its retry
// token); refunds stop at 500. So a retry that succeeds costs nothing,
// and under a total outage the quota pays for 100 retries of errors (50
// of timeouts) and then none until successes come back.
//
// Two details of the sources. The middleware of 2020 (middleware.go at
// commit 07f013a52b2583056c12913b7132a875c205ab69) released only the retry
// token after a successful retry, so a success of a retry refunded its
// cost without the 1; the Smithy-generated 2026 test cases
// (aws/retry/retry2026_test.go) release NoRetryIncrement for first
// attempts only too. The current middleware, followed here, releases both;
// the difference is 1 token per successful retry. And the SDK charges the
// timeout cost only when the retryer is given timeout checks
// (StandardOptions.Timeouts is empty by default, so a default client pays
// 5 for every retry); here a per-attempt timeout (policies.Timeout) pays
// TimeoutCost: set it equal to RetryCost for the SDK's default.
//
// # Brooker's adaptive retry bucket (PerCall)
//
// The "adaptive" retry strategy of Marc Brooker's retry simulator
// (github.com/mbrooker/simulator_example, retry_sim/retry_strategy.py,
// AdaptiveRetryStrategy, at commit 7aa858b9e5d84c96372dda664ab6994057b5e7b6;
// "Fixing retries with token buckets and circuit breakers", 2022): a
// bucket of 5 tokens, full at the start, that every call earns 0.1 of
// when it starts (successful or not), and that pays one token for a retry
// while it holds more than one. His calls retry without an attempts limit
// or a backoff for as long as the bucket pays.
//
// With earn e per call, at an independent failure probability p and no
// attempts limit, a call wants p/(1-p) retries on average; when that is
// more than e the bucket binds: every token earned is spent, so over N
// calls the retries are C + e*N - L, C the capacity and L the level at
// the end (in (0, C]; at most about 1 + e while failures are frequent),
// and the attempts per call are
//
//	1 + e + (C - L)/N
//
// which tends to 1 + e (1.1 for Brooker's 0.1) as N grows. At p = 0.5 a
// call wants 1 retry, ten times e, so the bucket binds; Brooker's clients
// each had their own bucket, so N is the calls per client: 100 in 10 s
// at 10 per second give 1.14, 400 give 1.11 (topology's
// TestBrookerAdaptiveAttempts). Below p = e/(1+e) the bucket stays full
// and the strategy retries like unlimited retries.
//
// # Time and concurrency
//
// Instants are time.Duration values since an arbitrary fixed origin (see
// package policies); instants passed to one Bucket must not decrease (an
// earlier instant is treated as the latest one seen; a Finagle ignores an
// instant before its current slice's start). No type here is safe
// for concurrent use; package wall serialises access. Every method runs in
// O(1) and allocates nothing.
//
// The retry package decides whether a retry is allowed at all and does not
// import this package; the caller asks the budget only after retry.Decide
// has allowed a retry (see package retry).
package budget
