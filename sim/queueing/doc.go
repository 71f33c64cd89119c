// Package queueing computes exact results of classical queueing models,
// the oracles ressim's simulator is validated against (docs/validation.md).
//
// Rates are per second and times in seconds, as float64. With offered load
// a = lambda/mu (in Erlangs) and c servers, rho = a/c is the utilisation.
//
// Formulas (see e.g. Kleinrock, Queueing Systems vol. 1, 1975; Gross and
// Harris, Fundamentals of Queueing Theory, 4th ed., 2008):
//
//   - Erlang B, by the numerically stable recursion B(0) = 1,
//     B(k) = a B(k-1) / (k + a B(k-1)).
//   - Erlang C, C = B / (1 - rho (1 - B)); mean wait Wq = C / (c mu - lambda).
//   - M/M/1: the sojourn time is exponential with rate mu - lambda.
//   - M/G/1, Pollaczek-Khinchine: Wq = lambda E[S^2] / (2 (1 - rho)).
//   - M/M/c/K: the birth-death chain truncated at K in the system;
//     blocking probability pi_K; Little's law on admitted requests gives Wq.
//   - Erlang A (M/M/c+M, exponential patience with rate theta): the
//     birth-death chain with death rate min(n,c) mu + max(n-c,0) theta,
//     truncated where its tail is negligible; P(abandon) = theta Lq / lambda.
//   - M/M/c/K+M (Erlang A with at most K in the system): the same chain
//     truncated at K; P(block) = pi_K, P(abandon) = theta Lq / lambda,
//     and the mean wait of served customers from each queue position's
//     chance of reaching a server, c mu / (c mu + j theta).
//   - The asymptotic variance of a birth-death chain's time averages
//     (Whitt 1992), from which simulation tests derive their tolerances.
//
// Every function is pure and safe for concurrent use.
package queueing
