package binned

import (
	"testing"

	"github.com/ressim/ressim/sim/dist"
)

const nSamples = 200000

// Tolerances. With N = 200k observations the maximum-likelihood mean of
// even the most variable family here (hyperexponential, scv 4) has a
// relative standard error of about sqrt(scv/N) = 0.45%, so 3% is over 6
// standard errors and leaves room for the binning; shape parameters are
// estimated less precisely from bins (a few percent at most), so ~10% is
// several standard errors too, yet far tighter than the gap to a wrong
// family's best shape.
const (
	meanTol  = 0.03
	shapeTol = 0.10
)

func TestSelectRecoversFamily(t *testing.T) {
	cases := []struct {
		name  string
		p     dist.Params
		shape func(dist.Params) float64
	}{
		{"lognormal", dist.Params{Kind: dist.Lognormal, Mean: ms(40), Sigma: 0.6}, func(p dist.Params) float64 { return p.Sigma }},
		{"erlang", dist.Params{Kind: dist.Erlang, Mean: ms(25), K: 3}, func(p dist.Params) float64 { return float64(p.K) }},
		{"hyperexponential", dist.Params{Kind: dist.Hyperexponential, Mean: ms(30), SCV: 4}, func(p dist.Params) float64 { return p.SCV }},
		{"exponential", dist.Params{Kind: dist.Exponential, Mean: ms(20)}, nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := bin(expBuckets(), draw(c.p, nSamples, uint64(i+1)))
			best, all, err := Select(b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range all {
				t.Logf("%-16s AIC %12.1f chi2 %10.1f dof %2d p %.3g gap %.4f %+v", r.Params.Kind, r.AIC, r.ChiSq, r.DoF, r.PValue, r.MaxGap, r.Params)
			}
			if best.Params.Kind != c.p.Kind {
				t.Fatalf("selected %s, want %s", best.Params.Kind, c.p.Kind)
			}
			if e := relErr(float64(best.Params.Mean), float64(c.p.Mean)); e > meanTol {
				t.Errorf("mean %v, want %v (%.1f%% off)", best.Params.Mean, c.p.Mean, 100*e)
			}
			if c.shape != nil {
				if e := relErr(c.shape(best.Params), c.shape(c.p)); e > shapeTol {
					t.Errorf("shape %v, want %v (%.1f%% off)", c.shape(best.Params), c.shape(c.p), 100*e)
				}
			}
			// The correct model's p-value is uniform on (0, 1): below 0.001
			// only one seed in a thousand.
			if !(best.PValue > 0.001) {
				t.Errorf("p-value %v of the correct family", best.PValue)
			}
			for j := 1; j < len(all); j++ {
				if all[j].AIC < all[j-1].AIC {
					t.Fatalf("results not sorted by AIC")
				}
			}
		})
	}
}
