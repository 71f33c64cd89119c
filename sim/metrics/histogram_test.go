package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactQuantile is the nearest-rank q-quantile of sorted values, the
// definition Quantile approximates.
func exactQuantile(sorted []int64, q float64) int64 {
	return sorted[rank(q, uint64(len(sorted)))-1]
}

// relErr is |got-want|/want, or |got-want| when want is 0.
func relErr(got, want int64) float64 {
	d := math.Abs(float64(got) - float64(want))
	if want == 0 {
		return d
	}
	return d / float64(want)
}

// checkQuantiles fails t unless every quantile in qs is within the bound
// of the exact order statistic of vals (which it sorts).
func checkQuantiles(t *testing.T, h *Histogram, vals []int64, qs []float64) {
	t.Helper()
	s := slices.Clone(vals)
	for i := range s {
		s[i] = max(s[i], 0)
	}
	slices.Sort(s)
	bound := math.Ldexp(1, -(h.PrecisionBits() + 1))
	for _, q := range qs {
		want := exactQuantile(s, q)
		got := h.Quantile(q)
		if e := relErr(got, want); e >= bound && !(want < 1<<(h.PrecisionBits()+1) && got == want) {
			t.Errorf("p=%d Quantile(%v) = %d, exact %d, relative error %.3g >= bound %.3g",
				h.PrecisionBits(), q, got, want, e, bound)
		}
		if want < 1<<(h.PrecisionBits()+1) && got != want {
			t.Errorf("p=%d Quantile(%v) = %d, want exact %d", h.PrecisionBits(), q, got, want)
		}
	}
}

var testQuantiles = []float64{0, 1e-6, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999, 1}

func TestBucketLayout(t *testing.T) {
	for _, tc := range []struct {
		p         uint
		v         uint64
		idx       int
		low, high int64
	}{
		{7, 0, 0, 0, 0},
		{7, 1, 1, 1, 1},
		{7, 255, 255, 255, 255},
		{7, 256, 256, 256, 257},
		{7, 257, 256, 256, 257},
		{7, 258, 257, 258, 259},
		{7, 511, 383, 510, 511},
		{7, 512, 384, 512, 515},
		{7, 1_000_000_000, 3054, 998_244_352, 1_002_438_655},
		{7, 1<<63 - 1, 7295, (1<<63 - 1) &^ (1<<55 - 1), 1<<63 - 1},
		{1, 3, 3, 3, 3},
		{1, 4, 4, 4, 5},
		{1, 6, 5, 6, 7},
		{1, 8, 6, 8, 11},
	} {
		idx := bucketOf(tc.v, tc.p)
		low, high := bucketBounds(idx, tc.p)
		if idx != tc.idx || low != tc.low || high != tc.high {
			t.Errorf("p=%d v=%d: bucket %d [%d, %d], want %d [%d, %d]",
				tc.p, tc.v, idx, low, high, tc.idx, tc.low, tc.high)
		}
	}
}

// TestBucketTiling checks that consecutive buckets tile the values with no
// gap or overlap, and that each value maps into its own bucket.
func TestBucketTiling(t *testing.T) {
	for p := uint(1); p <= MaxPrecisionBits; p++ {
		n := numBuckets(p)
		var next int64
		for idx := 0; idx < n; idx++ {
			low, high := bucketBounds(idx, p)
			if low != next || high < low {
				t.Fatalf("p=%d bucket %d = [%d, %d], want low %d", p, idx, low, high, next)
			}
			if bucketOf(uint64(low), p) != idx || bucketOf(uint64(high), p) != idx {
				t.Fatalf("p=%d bucket %d bounds map elsewhere", p, idx)
			}
			r := bucketRep(idx, p)
			if r < low || r > high {
				t.Fatalf("p=%d bucket %d rep %d outside [%d, %d]", p, idx, r, low, high)
			}
			if high == math.MaxInt64 {
				if idx != n-1 {
					t.Fatalf("p=%d: MaxInt64 in bucket %d of %d", p, idx, n)
				}
				break
			}
			next = high + 1
		}
	}
}

func TestNewHistogram(t *testing.T) {
	for _, tc := range []struct {
		bits, want int
		ok         bool
	}{
		{0, DefaultPrecisionBits, true}, {1, 1, true}, {7, 7, true}, {16, 16, true},
		{-1, 0, false}, {17, 0, false},
	} {
		h, err := NewHistogram(tc.bits)
		if (err == nil) != tc.ok {
			t.Errorf("NewHistogram(%d) error %v, want ok=%v", tc.bits, err, tc.ok)
			continue
		}
		if err == nil && h.PrecisionBits() != tc.want {
			t.Errorf("NewHistogram(%d).PrecisionBits() = %d, want %d", tc.bits, h.PrecisionBits(), tc.want)
		}
	}
	var z Histogram
	if z.PrecisionBits() != DefaultPrecisionBits {
		t.Errorf("zero Histogram precision %d", z.PrecisionBits())
	}
}

// TestHistogramSteps runs a table of operations on one histogram and
// checks its state after each.
func TestHistogramSteps(t *testing.T) {
	var h Histogram // zero value: 7 bits
	for i, st := range []struct {
		op       string
		v        int64
		n        uint64
		count    uint64
		sum      float64
		min, max int64
		p50, p99 int64
	}{
		{op: "empty", count: 0, sum: 0, min: 0, max: 0, p50: 0, p99: 0},
		{op: "record", v: 10, count: 1, sum: 10, min: 10, max: 10, p50: 10, p99: 10},
		{op: "record", v: -5, count: 2, sum: 10, min: 0, max: 10, p50: 0, p99: 10},
		{op: "recordN", v: 1000, n: 3, count: 5, sum: 3010, min: 0, max: 1000, p50: 1000, p99: 1000},
		{op: "recordN", v: 7, n: 0, count: 5, sum: 3010, min: 0, max: 1000, p50: 1000, p99: 1000},
		{op: "record", v: 999, count: 6, sum: 4009, min: 0, max: 1000, p50: 997, p99: 1000},
		{op: "reset", count: 0, sum: 0, min: 0, max: 0, p50: 0, p99: 0},
		{op: "record", v: 300, count: 1, sum: 300, min: 300, max: 300, p50: 300, p99: 300},
		{op: "recordN", v: 1 << 40, n: 2, count: 3, sum: 300 + 2<<40, min: 300, max: 1 << 40, p50: 1 << 40, p99: 1 << 40},
	} {
		switch st.op {
		case "record":
			h.Record(st.v)
		case "recordN":
			h.RecordN(st.v, st.n)
		case "reset":
			h.Reset()
		}
		if h.Count() != st.count || h.Sum() != st.sum || h.Min() != st.min || h.Max() != st.max ||
			h.Quantile(0.5) != st.p50 || h.Quantile(0.99) != st.p99 {
			t.Errorf("step %d %s(%d, %d): count %d sum %v min %d max %d p50 %d p99 %d, want %d %v %d %d %d %d",
				i, st.op, st.v, st.n, h.Count(), h.Sum(), h.Min(), h.Max(), h.Quantile(0.5), h.Quantile(0.99),
				st.count, st.sum, st.min, st.max, st.p50, st.p99)
		}
	}
}

func TestQuantileEdges(t *testing.T) {
	var h Histogram
	for _, v := range []int64{5, 1, 4, 2, 3} {
		h.Record(v)
	}
	for _, tc := range []struct {
		q    float64
		want int64
	}{
		{-1, 1}, {math.NaN(), 1}, {0, 1}, {0.2, 1}, {0.21, 2}, {0.4, 2}, {0.5, 3}, {0.6, 3},
		{0.61, 4}, {0.8, 4}, {0.81, 5}, {1, 5}, {2, 5}, {math.Inf(1), 5},
	} {
		if got := h.Quantile(tc.q); got != tc.want {
			t.Errorf("Quantile(%v) = %d, want %d", tc.q, got, tc.want)
		}
	}
}

func TestRankDecimal(t *testing.T) {
	for _, tc := range []struct {
		q    float64
		n    uint64
		want uint64
	}{
		{0.07, 100, 7}, {0.29, 100, 29}, {0.57, 100, 57}, {0.99, 100, 99}, {0.999, 1000, 999},
		{0.5, 1, 1}, {0.5, 2, 1}, {0.5, 3, 2}, {0.9999, 10, 10}, {1e-12, 1 << 40, 2},
		{0.1, 1_000_000_000, 100_000_000}, {0.1 + 1e-12, 10, 1}, {0.1 + 1e-8, 10, 2}, {0.30000001, 10, 4},
	} {
		if got := rank(tc.q, tc.n); got != tc.want {
			t.Errorf("rank(%v, %d) = %d, want %d", tc.q, tc.n, got, tc.want)
		}
	}
}

func TestMeanExactSum(t *testing.T) {
	var h Histogram
	h.RecordN(math.MaxInt64, 1<<20) // sum ~ 2^83: would overflow an int64 or uint64 sum
	h.Record(1)
	want := math.Ldexp(1, 83) - math.Ldexp(1, 20) + 1 // correctly rounded: 2^83 - 2^20
	if got := h.Sum(); got != want {
		t.Errorf("Sum = %v, want %v", got, want)
	}
	if got, want := h.Mean(), want/float64(1<<20+1); got != want {
		t.Errorf("Mean = %v, want %v", got, want)
	}
	if got := h.Snapshot().Sum; got != "9671406556917033396600833" {
		t.Errorf("Snapshot().Sum = %s", got)
	}
}

func TestU128ToFloat(t *testing.T) {
	for _, tc := range []struct {
		hi, lo uint64
		want   float64
	}{
		{0, 0, 0},
		{0, 1<<64 - 1, 1 << 64},
		{1, 0, 1 << 64},
		{1, 1, 1 << 64},                        // 2^64+1 rounds down
		{1 << 52, 1, 0x1p116},                  // 2^116+1 rounds down
		{1<<53 - 1, 1 << 63, 0x1p117},          // a tie: rounds to the even neighbour, up
		{1 << 52, 1 << 63, 0x1p116},            // a tie: rounds to the even neighbour, down
		{1 << 52, 1<<63 + 1, 0x1p116 + 0x1p64}, // just above a tie: the sticky bit rounds up
	} {
		if got := u128ToFloat(tc.hi, tc.lo); got != tc.want {
			t.Errorf("u128ToFloat(%#x, %#x) = %v, want %v", tc.hi, tc.lo, got, tc.want)
		}
	}
}

// distributions returns named value generators for the bound checks.
func distributions() map[string]func(r *rand.Rand) int64 {
	return map[string]func(r *rand.Rand) int64{
		"exponential": func(r *rand.Rand) int64 { return int64(r.ExpFloat64() * 20e6) }, // mean 20 ms
		"lognormal":   func(r *rand.Rand) int64 { return int64(math.Exp(r.NormFloat64()*1.5 + 16)) },
		"constant":    func(r *rand.Rand) int64 { return 5_000_000_000 },
		"bimodal": func(r *rand.Rand) int64 {
			if r.Float64() < 0.9 {
				return int64(20e6 + r.NormFloat64()*2e6)
			}
			return int64(5e9 + r.NormFloat64()*1e8)
		},
		"small": func(r *rand.Rand) int64 { return r.Int64N(300) },
		"wide":  func(r *rand.Rand) int64 { return int64(r.Uint64() >> r.UintN(64)) },
	}
}

func TestQuantileBound(t *testing.T) {
	names := []string{"exponential", "lognormal", "constant", "bimodal", "small", "wide"}
	gens := distributions()
	for _, p := range []int{1, 3, 7, 10, MaxPrecisionBits} {
		for i, name := range names {
			r := rand.New(rand.NewPCG(uint64(p), uint64(i)))
			h, _ := NewHistogram(p)
			vals := make([]int64, 20000)
			var sum float64
			for j := range vals {
				vals[j] = gens[name](r)
				h.Record(vals[j])
				sum += float64(max(vals[j], 0))
			}
			checkQuantiles(t, h, vals, testQuantiles)
			if h.Count() != uint64(len(vals)) || h.Min() != max(slices.Min(vals), 0) || h.Max() != slices.Max(vals) {
				t.Errorf("%s p=%d: count/min/max %d %d %d", name, p, h.Count(), h.Min(), h.Max())
			}
			if math.Abs(h.Sum()-sum) > 1e-9*sum {
				t.Errorf("%s p=%d: Sum %v, want %v", name, p, h.Sum(), sum)
			}
		}
	}
}

// equalHist reports whether two histograms have the same observable state.
func equalHist(a, b *Histogram) bool {
	sa, sb := a.Snapshot(), b.Snapshot()
	return sa.PrecisionBits == sb.PrecisionBits && sa.Count == sb.Count && sa.Sum == sb.Sum &&
		sa.Min == sb.Min && sa.Max == sb.Max && slices.Equal(sa.Buckets, sb.Buckets)
}

func TestMergeEquivalence(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	all, _ := NewHistogram(7)
	merged, _ := NewHistogram(7)
	gens := distributions()
	for _, name := range []string{"exponential", "bimodal", "lognormal", "small"} {
		part, _ := NewHistogram(7)
		for range 5000 {
			v := gens[name](r)
			part.Record(v)
			all.Record(v)
		}
		if err := merged.Merge(part); err != nil {
			t.Fatal(err)
		}
	}
	if !equalHist(all, merged) {
		t.Fatalf("merged histogram differs from the combined one")
	}
	for _, q := range testQuantiles {
		if a, m := all.Quantile(q), merged.Quantile(q); a != m {
			t.Errorf("Quantile(%v): combined %d, merged %d", q, a, m)
		}
	}
	var empty Histogram
	if err := merged.Merge(&empty); err != nil || !equalHist(all, merged) {
		t.Errorf("merging an empty histogram changed the state (err %v)", err)
	}
	if err := empty.Merge(merged); err != nil || !equalHist(&empty, merged) {
		t.Errorf("merging into an empty histogram: err %v or state differs", err)
	}
	other, _ := NewHistogram(8)
	if err := merged.Merge(other); !errors.Is(err, ErrPrecisionMismatch) {
		t.Errorf("Merge of 8-bit into 7-bit: error %v, want ErrPrecisionMismatch", err)
	}
}

func TestResetClearsUsedRange(t *testing.T) {
	var h Histogram
	h.Record(1_000_000)
	h.Record(10_000_000_000)
	h.Reset()
	for i, c := range h.counts {
		if c != 0 {
			t.Fatalf("bucket %d = %d after Reset", i, c)
		}
	}
	h.Record(3)
	if h.Count() != 1 || h.Min() != 3 || h.Max() != 3 || h.Quantile(0.5) != 3 {
		t.Errorf("after Reset and Record(3): count %d min %d max %d", h.Count(), h.Min(), h.Max())
	}
	if len(h.counts) > 4096 {
		t.Errorf("10 s at 7 bits grew %d buckets, want a few thousand", len(h.counts))
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	h, _ := NewHistogram(5)
	for range 1000 {
		h.Record(int64(r.ExpFloat64() * 1e7))
	}
	h.RecordN(math.MaxInt64, 3)
	b, err := json.Marshal(h.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	g, err := FromSnapshot(s)
	if err != nil {
		t.Fatal(err)
	}
	if !equalHist(h, g) {
		t.Fatal("round trip changed the histogram")
	}
	var empty Histogram
	if g, err := FromSnapshot(empty.Snapshot()); err != nil || g.Count() != 0 {
		t.Errorf("empty round trip: %v", err)
	}
}

func TestFromSnapshotErrors(t *testing.T) {
	var h Histogram
	h.Record(10)
	h.Record(1000)
	good := h.Snapshot()
	for name, mutate := range map[string]func(s *Snapshot){
		"precision 0":  func(s *Snapshot) { s.PrecisionBits = 0 },
		"precision 99": func(s *Snapshot) { s.PrecisionBits = 99 },
		"bad bucket":   func(s *Snapshot) { s.Buckets[1].High++ },
		"negative":     func(s *Snapshot) { s.Buckets[0].Low = -1 },
		"order":        func(s *Snapshot) { s.Buckets[0], s.Buckets[1] = s.Buckets[1], s.Buckets[0] },
		"zero count":   func(s *Snapshot) { s.Buckets[0].Count = 0; s.Count = 1 },
		"count":        func(s *Snapshot) { s.Count = 3 },
		"min":          func(s *Snapshot) { s.Min = 11 },
		"max":          func(s *Snapshot) { s.Max = 2000 },
		"sum syntax":   func(s *Snapshot) { s.Sum = "1e3" },
		"sum range":    func(s *Snapshot) { s.Sum = "5" },
		"empty":        func(s *Snapshot) { s.Buckets = nil; s.Count = 0 },
	} {
		s := good
		s.Buckets = slices.Clone(good.Buckets)
		mutate(&s)
		if _, err := FromSnapshot(s); err == nil {
			t.Errorf("%s: FromSnapshot accepted %+v", name, s)
		}
	}
}

func TestRecordAllocs(t *testing.T) {
	var h Histogram
	h.Record(1e10) // grow once
	if a := testing.AllocsPerRun(1000, func() { h.Record(12345678) }); a != 0 {
		t.Errorf("Record allocates %v times", a)
	}
}

// TestHistogramExtremes steps the extremes through the values that meet
// their encoding's edges: the largest value first (equal to an empty
// histogram's decoded minimum), 0 (equal to its maximum), and a Reset.
func TestHistogramExtremes(t *testing.T) {
	var h Histogram
	for i, st := range []struct {
		record   []int64
		reset    bool
		min, max int64
		count    uint64
	}{
		{},
		{record: []int64{math.MaxInt64}, min: math.MaxInt64, max: math.MaxInt64, count: 1},
		{record: []int64{0}, min: 0, max: math.MaxInt64, count: 2},
		{reset: true},
		{record: []int64{0}, min: 0, max: 0, count: 1},
		{record: []int64{-5, 7}, min: 0, max: 7, count: 3},
		{reset: true},
		{record: []int64{300, 200}, min: 200, max: 300, count: 2},
	} {
		if st.reset {
			h.Reset()
		}
		for _, v := range st.record {
			h.Record(v)
		}
		if h.Min() != st.min || h.Max() != st.max || h.Count() != st.count {
			t.Fatalf("step %d: min %d max %d count %d, want %d %d %d", i, h.Min(), h.Max(), h.Count(), st.min, st.max, st.count)
		}
		if st.count > 0 && (h.Quantile(0) != st.min || h.Quantile(1) != st.max) {
			t.Fatalf("step %d: quantiles 0 and 1 are %d and %d, want %d and %d", i, h.Quantile(0), h.Quantile(1), st.min, st.max)
		}
	}
}

// TestHistogramGrowsByOctave: the bucket array covers the largest value
// plus at most one octave (1<<p buckets), however the values arrived, so a
// histogram holds about what its values span (doubling held twice that).
func TestHistogramGrowsByOctave(t *testing.T) {
	var h Histogram
	for v := int64(1); v < 2e9; v = v*5/4 + 1 {
		h.Record(v)
		if top := bucketOf(uint64(v), h.prec()); len(h.counts) > top+1+1<<h.prec() {
			t.Fatalf("after %d: %d buckets for a top bucket of %d", v, len(h.counts), top)
		}
	}
}

// TestQuantilesOnePass checks Quantiles against Quantile on histograms of
// every shape the model makes (one value, a few, long tails), for sorted
// quantiles (one pass), unsorted ones (a new pass on each decrease) and
// repeated ones, and on an empty histogram.
func TestQuantilesOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	qs := []float64{0.5, 0.9, 0.99, 0.999, 0.99, 0.5, 0, 1, 0.25, 0.25, 0.75, math.NaN()}
	for n := range 300 {
		var h Histogram
		for range n {
			h.Record(int64(rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(9)))))
		}
		checkQuantilesOnePass(t, &h, qs)
	}
	var empty Histogram
	out := []int64{7, 7}
	empty.Quantiles([]float64{0.5, 0.99}, out)
	if out[0] != 0 || out[1] != 0 {
		t.Errorf("empty histogram: Quantiles = %v, want zeros", out)
	}
}
