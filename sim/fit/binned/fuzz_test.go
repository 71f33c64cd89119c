package binned

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/ressim/ressim/sim/dist"
)

// FuzzFit: random bins either fail with an error or give a result whose
// parameters dist.New accepts, whose expected counts match the bins and
// whose log-likelihood is not NaN; Fit never panics. raw selects whether
// data's bytes are read as raw float64 pairs (mostly invalid input) or as
// small increments building ascending bounds (mostly valid input).
func FuzzFit(f *testing.F) {
	f.Add([]byte{1, 10, 2, 20, 4, 5, 8, 1}, false, uint8(dist.Lognormal), uint8(0), uint8(0))
	f.Add([]byte{0, 0, 1, 0, 1, 3}, false, uint8(dist.Erlang), uint8(100), uint8(3))
	f.Add([]byte{255, 1, 255, 0, 3, 255}, false, uint8(dist.Hyperexponential), uint8(10), uint8(0))
	f.Add(make([]byte, 32), true, uint8(dist.Exponential), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, raw bool, kind uint8, pw uint8, fixed uint8) {
		var b Bins
		if raw {
			for len(data) >= 16 && len(b.Bounds) < 50 {
				b.Bounds = append(b.Bounds, math.Float64frombits(binary.LittleEndian.Uint64(data)))
				b.Counts = append(b.Counts, math.Float64frombits(binary.LittleEndian.Uint64(data[8:])))
				data = data[16:]
			}
		} else {
			x := 0.0
			for len(data) >= 2 && len(b.Bounds) < 50 {
				x += float64(data[0]) * 1e-3
				b.Bounds = append(b.Bounds, x)
				b.Counts = append(b.Counts, float64(data[1]))
				data = data[2:]
			}
			if len(data) == 1 {
				b.Bounds = append(b.Bounds, math.Inf(1))
				b.Counts = append(b.Counts, float64(data[0]))
			}
		}
		var opt Options
		if pw > 0 {
			opt.Components = []Component{QueueWait(float64(pw)/200, 0.01)}
		}
		opt.FixedMean = ms(float64(fixed))
		r, err := Fit(b, dist.Kind(kind%5), opt)
		if err != nil {
			return
		}
		if _, err := dist.New(r.Params); err != nil {
			t.Fatalf("fitted %+v: %v", r.Params, err)
		}
		if len(r.Expected) != len(b.Counts) || math.IsNaN(r.LogLik) {
			t.Fatalf("result %+v for bins %+v", r, b)
		}
	})
}
