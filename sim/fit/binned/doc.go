// Package binned fits service-time distributions to binned (histogram)
// latency data by maximum likelihood: the own work X of a service, given
// a histogram of its observed latency T = X + known components (a queue
// wait, calls to callees).
//
// # Data
//
// A Bins is a per-bin (not cumulative) histogram with upper bounds in
// seconds, Prometheus-style: bin i holds observations in (Bounds[i-1],
// Bounds[i]], the first from 0; the last bound may be +Inf. When the last
// bound is finite the observations beyond it are taken as unrecorded, and
// the bins' probabilities are conditioned on T <= the last bound.
//
// # Likelihood
//
// The model's probability of bin i is P_i = F_T(Bounds[i]) -
// F_T(Bounds[i-1]), and the fit maximises the multinomial log-likelihood
// sum counts_i log P_i (the multinomial coefficient is left out: it does
// not depend on the model). Without components F_T is X's CDF in closed
// form: exponential, erlang (the regularized incomplete gamma function),
// hyperexponential (two exponentials, balanced means as in package dist)
// and lognormal (erfc). Each of F and 1-F is computed from its own small
// side so far tails keep their precision.
//
// With components, their sum C is computed once: each is rounded to the
// nearest point of a uniform grid of 65536 points spanning the sum of
// their extents, the rounded masses are convolved by FFT (gonum
// dsp/fourier), and the result is compressed into at most about 1024
// atoms (w_a at c_a), each the mean of a run of grid points holding
// 1/1024 of the probability. Then F_T(b) = sum_a w_a F_X(b - c_a) with
// F_X in closed form, so the fit never re-convolves. The error is second
// order in the grid spacing and run widths where F_X is smooth and at
// most 1/1024 in any case; tests check it against a hypoexponential and
// an erlang sum to 1e-4.
//
// # Optimisation
//
// Nelder–Mead over log mean and log(scv-1) (hyperexponential) or log
// sigma (lognormal), started from the histogram's moments (bin midpoints;
// the +Inf bin at 1.5 times the last finite bound) less the components'
// mean and variance, run once with a coarse simplex and restarted with a
// fine one. Erlang's k is profiled over 1..50, stopping once the
// likelihood has fallen below the best for two k in a row. Parameters are
// kept inside ranges dist.New accepts (mean 1ns..1e6 s, scv <= 1e6, sigma
// in [0.001, 10]). Everything is deterministic: no randomness, a bounded
// number of evaluations.
//
// # Scores
//
// Result carries the log-likelihood, AIC = 2K - 2LogLik (K counts the
// mean unless fixed, and k, scv or sigma), Pearson's chi-square with its
// p-value after merging adjacent bins until each expects at least 5
// observations, the largest CDF gap at the bounds, and the expected count
// per bin. Select fits several families and orders them by AIC.
package binned
