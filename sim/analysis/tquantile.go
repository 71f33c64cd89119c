package analysis

import "gonum.org/v1/gonum/stat/distuv"

// Level is the two-sided confidence level of every interval in this
// package: 0.95.
const Level = 0.95

// Z95 is the standard normal quantile Φ⁻¹(0.975) = 1.959963984540054, to
// float64 precision (R: qnorm(0.975)); the z in Wilson's interval.
const Z95 = 1.959963984540054

// asymptoticDF is the smallest df for which TCritical95 uses the
// asymptotic expansion instead of gonum: from there on the expansion's
// relative error is below 5e-16, while gonum's inversion of the incomplete
// beta function loses accuracy as df grows (6e-14 at df = 1000, 2e-11 at
// 1e5, 9e-8 at 2^30, measured against mpmath).
const asymptoticDF = 1000

// TCritical95 returns t(0.975; df), the 0.975 quantile of Student's t
// distribution with df degrees of freedom: the multiplier of the standard
// error in a two-sided 95 % interval for a mean (R: qt(0.975, df)). It
// returns +Inf for df < 1, so that an interval built from it excludes
// nothing. Its relative error is below 1e-13 for every df.
//
// For df < 1000 it is gonum's distuv.StudentsT.Quantile, which inverts
// the regularized incomplete beta function; for df >= 1000 it is the
// Cornish-Fisher expansion of t in powers of 1/df to the fourth order
// (Abramowitz & Stegun 1964, eq. 26.7.5) at z = Z95.
func TCritical95(df int) float64 {
	if df < 1 {
		return posInf
	}
	if df >= asymptoticDF {
		return tAsymptotic95(float64(df))
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.5 + Level/2)
}

// tAsymptotic95 is Abramowitz & Stegun eq. 26.7.5 at x_p = Z95:
// t = z + g1/ν + g2/ν² + g3/ν³ + g4/ν⁴ with
//
//	g1 = (z³ + z)/4
//	g2 = (5z⁵ + 16z³ + 3z)/96
//	g3 = (3z⁷ + 19z⁵ + 17z³ - 15z)/384
//	g4 = (79z⁹ + 776z⁷ + 1482z⁵ - 1920z³ - 945z)/92160
func tAsymptotic95(nu float64) float64 {
	const (
		z  = Z95
		z2 = z * z
		g1 = z * (z2 + 1) / 4
		g2 = z * ((5*z2+16)*z2 + 3) / 96
		g3 = z * (((3*z2+19)*z2+17)*z2 - 15) / 384
		g4 = z * ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) / 92160
	)
	r := 1 / nu
	return z + r*(g1+r*(g2+r*(g3+r*g4)))
}
