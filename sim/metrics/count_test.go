package metrics

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestCountSteps(t *testing.T) {
	var c Count
	steps := []struct {
		at, delta int64
		wantArea  float64 // at the step's instant, before the change
		wantValue int64   // after the change
	}{
		{0, 2, 0, 2},
		{10, 1, 20, 3},
		{10, -1, 20, 2}, // same instant: no area
		{25, -5, 50, 0}, // clamped at zero
		{5, 4, 50, 4},   // earlier instant: treated as 25
		{30, 0, 70, 4},
	}
	for i, s := range steps {
		if got := c.Area(s.at); got != s.wantArea {
			t.Errorf("step %d: Area(%d) = %v, want %v", i, s.at, got, s.wantArea)
		}
		c.Add(s.at, s.delta)
		if c.Value() != s.wantValue {
			t.Errorf("step %d: Value = %d, want %d", i, c.Value(), s.wantValue)
		}
	}
	if c.Max() != 4 {
		t.Errorf("Max = %d, want 4", c.Max())
	}
}

// TestCountExact compares against big-integer arithmetic over long runs
// with large values and spans.
func TestCountExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c Count
	want := new(big.Int)
	now, v := int64(0), int64(0)
	for i := 0; i < 100000; i++ {
		dt := rng.Int64N(1 << 40)
		now += dt
		want.Add(want, new(big.Int).Mul(big.NewInt(v), big.NewInt(dt)))
		d := rng.Int64N(1<<20) - 1<<19
		if v+d < 0 {
			d = -v
		}
		v += d
		c.Add(now, d)
	}
	wf, _ := new(big.Float).SetInt(want).Float64()
	if got := c.Area(now); got != wf {
		t.Fatalf("Area = %v, exact %v", got, wf)
	}
	if math.Abs(c.Area(now+1000)-wf-float64(v)*1000) > wf*1e-15 {
		t.Fatal("Area beyond the last change is wrong")
	}
}

func FuzzCount(f *testing.F) {
	f.Add([]byte{1, 2, 3, 250, 4})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var c Count
		var now, v int64
		area := new(big.Int)
		for _, b := range ops {
			dt := int64(b >> 4)
			now += dt
			area.Add(area, big.NewInt(v*dt))
			d := int64(b&15) - 7
			v = max(v+d, 0)
			switch d { // Inc and Dec are Add's +1 and -1
			case 1:
				c.Inc(now)
			case -1:
				c.Dec(now)
			default:
				c.Add(now, d)
			}
			if c.Value() != v || c.Value() < 0 {
				t.Fatalf("value %d, want %d", c.Value(), v)
			}
		}
		wf, _ := new(big.Float).SetInt(area).Float64()
		if c.Area(now) != wf {
			t.Fatalf("area %v, want %v", c.Area(now), wf)
		}
	})
}

// BenchmarkCountIncDec is the hot path's pair: one of each per op.
func BenchmarkCountIncDec(b *testing.B) {
	b.ReportAllocs()
	var c Count
	for i := 0; i < b.N; i++ {
		c.Inc(int64(2 * i))
		c.Dec(int64(2*i + 1))
	}
}

func BenchmarkCountAdd(b *testing.B) {
	b.ReportAllocs()
	var c Count
	for i := 0; i < b.N; i++ {
		c.Add(int64(i), int64(i&1)*2-1)
	}
}
