// Package analysis holds the statistics ressim uses to compare replicated
// runs of experiment variants: a summary of N replications with a Student-t
// confidence interval for the mean (Summarize), the paired comparison of
// two variants run with common random numbers (Paired), and the Wilson
// score interval for a proportion such as the probability of lock-in
// (Wilson). Every interval is two-sided at the 95 % level (Level).
//
// Units are the caller's: a Summary of goodputs in requests per second has
// its Mean, SD, SE and interval bounds in requests per second; Wilson's
// bounds are fractions in [0, 1]. Results are deterministic: they depend
// only on the input values and their order.
//
// # Replications
//
// A replication is one run of an experiment with its own seed. The N
// values of one metric, one per replication, are independent and
// identically distributed; the interval Mean ± t(0.975; N-1)·SD/√N is
// Student's (Student 1908), exact for normal data and close to 95 % for
// run-level averages, which are near normal by the central limit theorem
// (Law 2015, §9.4.1, the "fixed-sample-size procedure"). SD uses the N-1
// (Bessel) denominator. The mean and the sum of squared deviations are
// computed by the corrected two-pass algorithm (Chan, Golub & LeVeque
// 1983, eq. 1.7; the algorithm of gonum's stat.MeanVariance) on values
// scaled by a power of two, so that nothing overflows for finite input.
// The t quantiles (R: qt(0.975, df)), exposed as TCritical95, come from
// gonum.org/v1/gonum/stat/distuv.StudentsT.Quantile for df < 1000 and from
// the Cornish-Fisher expansion of Abramowitz & Stegun (1964, eq. 26.7.5)
// above, where gonum's inversion loses accuracy; both are within 1e-13.
//
// A sample of 0 or 1 value has no spread estimate: its Summary has
// Defined = false and the interval (-Inf, +Inf), which excludes nothing,
// so that one replication can never look like evidence. Non-finite input
// gives NaN fields. Summary documents every case.
//
// # Comparing variants: common random numbers
//
// When replication i of the base and of the variant share seed i (common
// random numbers, Law 2015, §11.2), their noise is positively correlated
// and cancels in the difference. Paired summarizes the differences
// variant[i] - base[i] and gives the paired-t confidence interval
// (Law 2015, §10.2.1; R: t.test(variant, base, paired = TRUE)), which does
// not assume equal variances of the two variants. Interval.ExcludesZero on
// its CI95 is the two-sided paired t-test at the 5 % level; the sign of
// Mean says which variant is larger.
//
// # Proportions
//
// Wilson returns the score interval of Wilson (1927) with z = Z95 =
// Φ⁻¹(0.975) = 1.959963984540054:
//
//	(x + z²/2 ± z·√(x(n-x)/n + z²/4)) / (n + z²)
//
// for x successes in n trials. It stays in [0, 1], is informative at 0 and
// n successes, and holds close to nominal coverage for small n, where the
// Wald interval p ± z√(p(1-p)/n) does not (Agresti & Coull 1998; Newcombe
// 1998, method 3). The lower bound is computed as the product of the roots
// divided by the upper root to avoid cancellation; the upper bound as one
// minus the lower bound for the failures, so Wilson(n-x, n) mirrors
// Wilson(x, n) to within 1e-15.
//
// # Sources
//
//   - Student (1908). The probable error of a mean. Biometrika 6(1), 1-25.
//   - E. B. Wilson (1927). Probable inference, the law of succession, and
//     statistical inference. JASA 22(158), 209-212.
//   - T. F. Chan, G. H. Golub, R. J. LeVeque (1983). Algorithms for
//     computing the sample variance: analysis and recommendations. The
//     American Statistician 37(3), 242-247.
//   - A. Agresti, B. A. Coull (1998). Approximate is better than "exact" for
//     interval estimation of binomial proportions. The American
//     Statistician 52(2), 119-126.
//   - R. G. Newcombe (1998). Two-sided confidence intervals for the single
//     proportion: comparison of seven methods. Statistics in Medicine
//     17(8), 857-872. Its worked examples (81/263, 15/148, 0/20, 1/29) are
//     test cases here.
//   - M. Abramowitz, I. A. Stegun (1964). Handbook of Mathematical
//     Functions. NBS, eq. 26.7.5.
//   - A. M. Law (2015). Simulation Modeling and Analysis, 5th ed.
//     McGraw-Hill.
//
// The tests hold the package to R's results on the sleep data of Cushny &
// Peebles (Student's 1908 example; R: datasets::sleep), to t quantiles and
// Wilson bounds computed to 40 digits with mpmath, and to the closed forms
// of the t quantile for 1, 2 and 4 degrees of freedom.
//
// # Concurrency
//
// Every function is pure and allocation-free (except Paired's error
// values); all are safe for concurrent use. There is no package-level
// mutable state.
//
// # Cost
//
// Summarize and Paired take about 10 µs for N <= 1000 (an AMD EPYC core),
// nearly all of it gonum's t quantile; Wilson takes about 15 ns. These are
// per-report costs, negligible beside a simulation run.
package analysis
