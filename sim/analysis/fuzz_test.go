package analysis

import (
	"encoding/binary"
	"math"
	"testing"
)

// floats decodes b as little-endian float64s (a trailing partial value
// is ignored), so the fuzzer can reach every bit pattern: NaNs,
// infinities, subnormals and the extremes.
func floats(b []byte) []float64 {
	xs := make([]float64, len(b)/8)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return xs
}

func bytesOf(xs ...float64) []byte {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// checkSummary checks the invariants Summary documents for xs.
func checkSummary(t *testing.T, xs []float64, s Summary) {
	t.Helper()
	if s.N != len(xs) {
		t.Fatalf("N = %d, want %d", s.N, len(xs))
	}
	allFinite := true
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		allFinite = allFinite && finite(x)
		lo, hi = min(lo, x), max(hi, x)
	}
	switch {
	case !allFinite:
		if s.Defined || !math.IsNaN(s.Mean) || !math.IsNaN(s.SD) || !math.IsNaN(s.SE) ||
			!math.IsNaN(s.CI95.Lo) || !math.IsNaN(s.CI95.Hi) {
			t.Fatalf("non-finite input: %+v, want NaN fields and Defined false", s)
		}
		if s.CI95.ExcludesZero() || s.CI95.Contains(0) {
			t.Fatalf("non-finite input: NaN interval %v contains or excludes zero", s.CI95)
		}
		return
	case len(xs) < 2:
		if s.Defined || s.SD != 0 || s.SE != 0 || s.CI95 != unbounded() || hasNaN(s) {
			t.Fatalf("N = %d: %+v, want SD = SE = 0, unbounded CI95, Defined false", len(xs), s)
		}
		if len(xs) == 1 && s.Mean != xs[0] || len(xs) == 0 && s.Mean != 0 {
			t.Fatalf("N = %d: Mean = %v", len(xs), s.Mean)
		}
		if s.CI95.ExcludesZero() {
			t.Fatalf("N = %d: CI95 %v excludes zero", len(xs), s.CI95)
		}
		return
	}
	if !s.Defined || hasNaN(s) {
		t.Fatalf("finite input, N = %d: %+v, want Defined and NaN-free", len(xs), s)
	}
	if !(lo <= s.Mean && s.Mean <= hi) || !finite(s.Mean) {
		t.Fatalf("Mean = %v outside [min, max] = [%v, %v]", s.Mean, lo, hi)
	}
	if !(s.SD >= 0 && s.SE >= 0 && s.SE <= s.SD) {
		t.Fatalf("SD = %v, SE = %v: want 0 <= SE <= SD", s.SD, s.SE)
	}
	if !(s.CI95.Lo <= s.CI95.Hi) || !s.CI95.Contains(s.Mean) || !(s.CI95.Width() >= 0) {
		t.Fatalf("CI95 = %v does not contain Mean = %v", s.CI95, s.Mean)
	}
	if (lo == hi) != (s.SD == 0 && s.CI95.Width() == 0) {
		t.Fatalf("min %v, max %v: SD = %v, width %v; want 0 exactly when all values are equal", lo, hi, s.SD, s.CI95.Width())
	}
	// Symmetry: negating the data negates mean and interval exactly.
	neg := make([]float64, len(xs))
	for i, x := range xs {
		neg[i] = -x
	}
	if m := Summarize(neg); m.Mean != -s.Mean || m.SD != s.SD || m.CI95.Lo != -s.CI95.Hi || m.CI95.Hi != -s.CI95.Lo {
		t.Fatalf("Summarize(-xs) = %+v, Summarize(xs) = %+v: not mirrored", m, s)
	}
}

func FuzzSummarize(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytesOf(1))
	f.Add(bytesOf(1, 2))
	f.Add(bytesOf(0.1, 0.1, 0.1))
	f.Add(bytesOf(-1e308, 1e308, 5e-324))
	f.Add(bytesOf(1, math.NaN()))
	f.Add(bytesOf(math.Inf(-1), 0))
	f.Add(bytesOf(sleep1...))
	f.Fuzz(func(t *testing.T, b []byte) {
		xs := floats(b)
		checkSummary(t, xs, Summarize(xs))
	})
}

func FuzzPaired(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add(bytesOf(sleep1...), bytesOf(sleep2...))
	f.Add(bytesOf(1, 2), bytesOf(1))
	f.Add(bytesOf(-1e308), bytesOf(1e308))
	f.Add(bytesOf(math.NaN(), 1), bytesOf(1, 1))
	f.Fuzz(func(t *testing.T, bb, vb []byte) {
		base, variant := floats(bb), floats(vb)
		s, err := Paired(base, variant)
		if len(base) != len(variant) {
			if err == nil {
				t.Fatalf("lengths %d, %d: no error", len(base), len(variant))
			}
			return
		}
		d := make([]float64, len(base))
		ok := true
		for i := range d {
			d[i] = variant[i] - base[i]
			ok = ok && finite(base[i]) && finite(variant[i]) && finite(d[i])
		}
		if ok != (err == nil) {
			t.Fatalf("error %v, but all finite = %v", err, ok)
		}
		if err != nil {
			if s != (Summary{}) {
				t.Fatalf("Summary %+v with error", s)
			}
			return
		}
		checkSummary(t, d, s)
		if want := Summarize(d); !sameSummary(s, want) {
			t.Fatalf("Paired = %+v, Summarize(differences) = %+v", s, want)
		}
	})
}

func FuzzWilson(f *testing.F) {
	f.Add(0, 0)
	f.Add(0, 1)
	f.Add(81, 263)
	f.Add(-1, 5)
	f.Add(6, 5)
	f.Add(math.MaxInt, math.MaxInt)
	f.Add(1, math.MaxInt)
	f.Fuzz(func(t *testing.T, x, n int) {
		iv := Wilson(x, n)
		if n < 0 || x < 0 || x > n {
			if !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
				t.Fatalf("Wilson(%d, %d) = %v, want NaN bounds", x, n, iv)
			}
			return
		}
		if n == 0 {
			if iv != (Interval{0, 1}) {
				t.Fatalf("Wilson(0, 0) = %v, want [0, 1]", iv)
			}
			return
		}
		p := float64(x) / float64(n)
		if !(0 <= iv.Lo && iv.Lo <= p && p <= iv.Hi && iv.Hi <= 1) {
			t.Fatalf("Wilson(%d, %d) = %v, want 0 <= Lo <= %v <= Hi <= 1", x, n, iv, p)
		}
		if (x == 0) != (iv.Lo == 0) && n < 1<<52 {
			t.Fatalf("Wilson(%d, %d) = %v: Lo = 0 iff no successes", x, n, iv)
		}
		m := Wilson(n-x, n)
		if math.Abs(m.Lo-(1-iv.Hi)) > 1e-15 || math.Abs(m.Hi-(1-iv.Lo)) > 1e-15 {
			t.Fatalf("Wilson(%d, %d) = %v, mirror Wilson(%d, %d) = %v", x, n, iv, n-x, n, m)
		}
	})
}
