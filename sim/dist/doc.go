// Package dist provides the probability distributions ressim samples
// durations from: service times, network latencies, think times.
//
// Every distribution is a value built from validated parameters; sampling
// takes the caller's *rand.Rand (math/rand/v2), so the simulator decides
// which random stream each draw comes from. Samples are durations rounded to
// the nanosecond, never negative.
//
// Distributions and their parameters:
//
//   - constant(mean): always mean (M/D/c service).
//   - exponential(mean): memoryless, squared coefficient of variation 1.
//   - erlang(mean, k): the sum of k exponentials of mean mean/k; SCV 1/k.
//   - hyperexponential(mean, scv): a two-phase mixture with balanced means
//     (each phase carries half the mean); SCV scv >= 1.
//   - lognormal(mean, sigma): exp(N(mu, sigma^2)) with mu = ln(mean) -
//     sigma^2/2, so that the mean is mean; SCV exp(sigma^2) - 1.
//   - uniform(min, max): uniform on [min, max]; mean (min+max)/2.
//   - normal(mean, sd): N(mean, sd^2) truncated at zero by rejection
//     (negative draws are drawn again), so its realised mean is
//     mean + sd*phi(a)/(1-Phi(a)) with a = -mean/sd: above mean, by 0.29 sd
//     when sd = mean, negligibly once mean >= 3 sd. Mean reports it.
//
// A Source is a stream for the draws a model makes on every event: a
// *rand.Rand over its own copy of math/rand/v2's PCG whose Float64,
// ExpFloat64 and Dist.DrawFrom skip the rand.Source interface call, with
// the same values as the Rand's.
//
// A Dist value is immutable and safe for concurrent use; the *rand.Rand
// passed to Sample, and a Source, are not.
package dist
