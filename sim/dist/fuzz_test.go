package dist

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzNew: any parameters either fail with ErrParam or give a distribution
// whose mean and SCV are finite and non-negative and whose samples are
// never negative.
func FuzzNew(f *testing.F) {
	f.Add(uint8(Normal), int64(time.Millisecond), int64(time.Millisecond), 0, 0.0, 0.0)
	f.Add(uint8(Normal), int64(1), int64(math.MaxInt64/2), 0, 0.0, 0.0)
	f.Add(uint8(Normal), int64(math.MaxInt64/2), int64(1), 0, 0.0, 0.0)
	f.Add(uint8(Lognormal), int64(time.Millisecond), int64(0), 0, 0.0, 1.0)
	f.Add(uint8(Erlang), int64(time.Millisecond), int64(0), 4, 0.0, 0.0)
	f.Add(uint8(Hyperexponential), int64(time.Millisecond), int64(0), 0, 4.0, 0.0)
	f.Fuzz(func(t *testing.T, kind uint8, mean, spread int64, k int, scv, sigma float64) {
		p := Params{Kind: Kind(kind), Mean: time.Duration(mean), SD: time.Duration(spread), K: k, SCV: scv, Sigma: sigma,
			Min: time.Duration(mean), Max: time.Duration(spread)}
		d, err := New(p)
		if err != nil {
			if !errors.Is(err, ErrParam) {
				t.Fatalf("New(%+v): %v is not ErrParam", p, err)
			}
			return
		}
		if m, s := float64(d.Mean()), d.SCV(); m < 0 || s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			t.Fatalf("New(%+v): mean %v scv %v", p, m, s)
		}
		rng := rand.New(rand.NewPCG(uint64(mean), uint64(spread)))
		for i := 0; i < 100; i++ {
			if x := d.Sample(rng); x < 0 {
				t.Fatalf("New(%+v): sample %v", p, x)
			}
		}
	})
}
