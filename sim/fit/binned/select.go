package binned

import (
	"fmt"
	"math"
	"sort"

	"github.com/ressim/ressim/sim/dist"
)

// DefaultFamilies returns the families Select tries by default, a new
// slice each call: exponential, erlang, hyperexponential, lognormal.
func DefaultFamilies() []dist.Kind {
	return []dist.Kind{dist.Exponential, dist.Erlang, dist.Hyperexponential, dist.Lognormal}
}

// Select fits every family of opt.Families (nil: DefaultFamilies) and
// returns all results sorted by AIC ascending (ties, and NaN AICs last, in
// the order of the families), best = all[0].
func Select(b Bins, opt Options) (best Result, all []Result, err error) {
	fams := opt.Families
	if fams == nil {
		fams = DefaultFamilies()
	}
	if len(fams) == 0 {
		return Result{}, nil, fmt.Errorf("binned: select: no families")
	}
	for _, k := range fams {
		if err := supported(k); err != nil {
			return Result{}, nil, fmt.Errorf("select: %w", err)
		}
	}
	pr, st, err := prepare(b, opt)
	if err != nil {
		return Result{}, nil, fmt.Errorf("select: %w", err)
	}
	for _, k := range fams {
		all = append(all, fitFamily(pr, st, k, opt.FixedMean > 0))
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].AIC, all[j].AIC
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a < b
	})
	return all[0], all, nil
}
