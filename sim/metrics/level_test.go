package metrics

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

func TestLevelSteps(t *testing.T) {
	var l Level // zero value: 0 since instant 0
	for i, st := range []struct {
		at       int64
		action   string
		in       float64
		value    float64
		area     float64 // Area(at) after the action
		mean     float64 // Mean(at) after the action
		min, max float64
	}{
		{at: 0, action: "none", value: 0, area: 0, mean: 0, min: 0, max: 0},
		{at: 10, action: "add", in: 1, value: 1, area: 0, mean: 0, min: 0, max: 1},
		{at: 20, action: "add", in: 2, value: 3, area: 10, mean: 0.5, min: 0, max: 3},
		{at: 30, action: "set", in: 1, value: 1, area: 40, mean: 40.0 / 30, min: 0, max: 3},
		{at: 40, action: "none", value: 1, area: 50, mean: 1.25, min: 0, max: 3},
		{at: 40, action: "reset", value: 1, area: 0, mean: 1, min: 1, max: 1},
		{at: 50, action: "add", in: -1, value: 0, area: 10, mean: 1, min: 0, max: 1},
		{at: 45, action: "set", in: 2, value: 2, area: 10, mean: 2, min: 0, max: 2}, // earlier instant: treated as 50
		{at: 60, action: "none", value: 2, area: 30, mean: 1.5, min: 0, max: 2},
		{at: 60, action: "set", in: 0.5, value: 0.5, area: 30, mean: 1.5, min: 0, max: 2},
		{at: 100, action: "reset", value: 0.5, area: 0, mean: 0.5, min: 0.5, max: 0.5},
		{at: 104, action: "set", in: -2, value: -2, area: 2, mean: 0.5, min: -2, max: 0.5},
		{at: 108, action: "none", value: -2, area: -6, mean: -0.75, min: -2, max: 0.5},
	} {
		switch st.action {
		case "set":
			l.Set(st.at, st.in)
		case "add":
			l.Add(st.at, st.in)
		case "reset":
			l.Reset(st.at)
		}
		if l.Value() != st.value || l.Area(st.at) != st.area || l.Mean(st.at) != st.mean ||
			l.Min() != st.min || l.Max() != st.max {
			t.Errorf("step %d (%s %v at %d): value %v area %v mean %v min %v max %v, want %v %v %v %v %v",
				i, st.action, st.in, st.at, l.Value(), l.Area(st.at), l.Mean(st.at), l.Min(), l.Max(),
				st.value, st.area, st.mean, st.min, st.max)
		}
	}
	if l.Start() != 100 {
		t.Errorf("Start() = %d, want 100", l.Start())
	}
}

// TestLevelLongRunInteger drives an integer level (a queue length) through
// 1e7 changes and checks that the area is exactly the integer sum, where a
// plain float64 accumulator would drift.
func TestLevelLongRunInteger(t *testing.T) {
	n := 10_000_000
	if testing.Short() {
		n = 100_000
	}
	r := rand.New(rand.NewPCG(11, 12))
	var l Level
	var exact int64 // fits: n * 1000 * 1e6 < 2^63
	var naive float64
	now, v := int64(0), int64(0)
	for range n {
		dt := 1 + r.Int64N(1_000_000)
		exact += v * dt
		naive += float64(v) * float64(dt)
		now += dt
		v = max(0, v+r.Int64N(21)-10) // random walk of a queue length
		l.Set(now, float64(v))
	}
	if got := l.Area(now); got != float64(exact) {
		t.Errorf("Area = %v, want exactly %d (naive float64 sum %v)", got, exact, naive)
	}
	t.Logf("n=%d exact %d, naive float64 relative error %.3g", n, exact, math.Abs(naive-float64(exact))/float64(exact))
}

// TestLevelHugeIntegerArea checks exactness far beyond float64's 2^53: an
// integer level around 1e9 over spans around 1e12 ns accumulates an area
// near 2^86, compared with an exact big.Int sum.
func TestLevelHugeIntegerArea(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var l Level
	exact := new(big.Int)
	now, v := int64(0), int64(0)
	for range 100_000 {
		dt := 1 + r.Int64N(2_000_000_000_000)
		exact.Add(exact, new(big.Int).Mul(big.NewInt(v), big.NewInt(dt)))
		now += dt
		v = r.Int64N(2_000_000_000)
		l.Set(now, float64(v))
	}
	want, _ := new(big.Float).SetInt(exact).Float64() // correctly rounded
	if got := l.Area(now); got != want {
		t.Errorf("Area = %v, want %v (exact %s)", got, want, exact)
	}
	if exact.BitLen() < 80 {
		t.Fatalf("area %s too small to test anything", exact)
	}
	hi, lo := l.hi, l.lo
	sum := new(big.Float).SetPrec(300).SetFloat64(hi)
	sum.Add(sum, new(big.Float).SetFloat64(lo))
	if got, _ := sum.Int(nil); got.Cmp(exact) != 0 {
		t.Errorf("accumulator hi+lo = %s, want exactly %s", got, exact)
	}
}

// TestLevelLongRunFraction compares a fractional level with an exact
// rational-free big.Float reference (the products and sums of float64 fit
// in 2200 bits).
func TestLevelLongRunFraction(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var l Level
	ref := new(big.Float).SetPrec(2200)
	tmp := new(big.Float).SetPrec(2200)
	now, v := int64(0), 0.0
	for range 100_000 {
		dt := 1 + r.Int64N(10_000_000)
		tmp.SetFloat64(v)
		tmp.Mul(tmp, new(big.Float).SetInt64(dt))
		ref.Add(ref, tmp)
		now += dt
		v = r.Float64() * 37.3
		l.Set(now, v)
	}
	want, _ := ref.Float64() // correctly rounded
	got := l.Area(now)
	if e := math.Abs(got-want) / want; e > 0x1p-52 {
		t.Errorf("Area = %v, want %v (relative error %.3g)", got, want, e)
	}
}

func TestLevelAllocs(t *testing.T) {
	var l Level
	now := int64(0)
	if a := testing.AllocsPerRun(1000, func() { now++; l.Add(now, 1) }); a != 0 {
		t.Errorf("Add allocates %v times", a)
	}
}

// TestSumProduct checks that Area's shortcut gives the bits of the
// double-double it skips building: sumProduct(hi, lo, a, b) == h + l for
// h, l = addProduct(hi, lo, a, b), over areas accumulated the way a Level
// accumulates them (values of every magnitude, durations up to hours).
func TestSumProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for run := range 200 {
		var hi, lo float64
		for step := range 500 {
			a := math.Ldexp(rng.Float64(), rng.IntN(80)-40)
			if rng.IntN(4) == 0 {
				a = float64(rng.IntN(100)) // the integer levels of a queue or a pool
			}
			b := float64(rng.Int64N(int64(time.Hour)))
			h, l := addProduct(hi, lo, a, b)
			if got, want := sumProduct(hi, lo, a, b), h+l; math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("run %d step %d: sumProduct(%v, %v, %v, %v) = %v, want %v", run, step, hi, lo, a, b, got, want)
			}
			hi, lo = h, l
		}
	}
}
