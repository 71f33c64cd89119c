package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDownsampleSmallIsCopied(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	y := []float64{5, math.NaN(), 7, 8}
	dx, dy := Downsample(nil, nil, x, y, 0, 3, 2) // 4 points <= 2*2
	if !slices.Equal(dx, x) || len(dy) != 4 || dy[0] != 5 || !math.IsNaN(dy[1]) || dy[3] != 8 {
		t.Fatalf("Downsample = %v, %v; want the input unchanged", dx, dy)
	}
}

func TestDownsampleTable(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name         string
		x, y         []float64
		x0, x1       float64
		columns      int
		wantX, wantY []float64
	}{
		{
			// Two columns, [0,4) and [4,8): each keeps min and max in
			// original order, plus the run's first and last points.
			name: "min max per column", x: []float64{0, 1, 2, 3, 4, 5, 6, 7}, y: []float64{5, 9, 1, 6, 4, 2, 8, 3},
			x0: 0, x1: 8, columns: 2,
			wantX: []float64{0, 1, 2, 5, 6, 7}, wantY: []float64{5, 9, 1, 2, 8, 3},
		},
		{
			name: "spike survives", x: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, y: []float64{0, 0, 0, 0, 0, 0, 100, 0, 0, 0},
			x0: 0, x1: 10, columns: 1,
			wantX: []float64{0, 6, 9}, wantY: []float64{0, 100, 0},
		},
		{
			name: "gap splits runs", x: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, y: []float64{1, 2, 3, nan, nan, nan, 4, 5, 6, 7},
			x0: 0, x1: 10, columns: 1,
			wantX: []float64{0, 2, 3, 6, 9}, wantY: []float64{1, 3, nan, 4, 7},
		},
		{
			name: "leading nan dropped", x: []float64{0, 1, 2, 3, 4}, y: []float64{nan, 1, 5, 2, 3},
			x0: 0, x1: 5, columns: 1,
			wantX: []float64{1, 2, 4}, wantY: []float64{1, 5, 3},
		},
		{
			name: "empty x range copies", x: []float64{3, 3, 3, 3, 3}, y: []float64{1, 2, 3, 4, 5},
			x0: 3, x1: 3, columns: 1,
			wantX: []float64{3, 3, 3, 3, 3}, wantY: []float64{1, 2, 3, 4, 5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gx, gy := Downsample(nil, nil, tt.x, tt.y, tt.x0, tt.x1, tt.columns)
			if !slices.Equal(gx, tt.wantX) || !equalNaN(gy, tt.wantY) {
				t.Fatalf("Downsample =\n x %v\n y %v\nwant\n x %v\n y %v", gx, gy, tt.wantX, tt.wantY)
			}
		})
	}
}

func TestDownsampleLogGaps(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5}
	y := []float64{1, 0, -3, 4, 5, 6}
	gx, gy := downsample(nil, nil, x, y, 0, 6, 1, true)
	if want := []float64{0, 1, 3, 5}; !slices.Equal(gx, want) {
		t.Fatalf("x = %v, want %v (y <= 0 is a gap on a log axis)", gx, want)
	}
	if want := []float64{1, math.NaN(), 4, 6}; !equalNaN(gy, want) {
		t.Fatalf("y = %v, want %v", gy, want)
	}
}

// TestDownsampleSpikes hides single-point spikes in a long noisy series and
// checks that every one survives, with the series' ends.
func TestDownsampleSpikes(t *testing.T) {
	const n, cols = 100_000, 600
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i) * 0.01
		y[i] = 100 + r.Float64()
	}
	spikes := map[int]float64{17: 1e6, 5003: -1e6, 50_000: 5e5, 99_998: 2e5}
	for i, v := range spikes {
		y[i] = v
	}
	dx, dy := Downsample(nil, nil, x, y, x[0], x[n-1], cols)
	if len(dx) > 2*cols+2 {
		t.Errorf("got %d points, want at most %d", len(dx), 2*cols+2)
	}
	if dx[0] != x[0] || dy[0] != y[0] || dx[len(dx)-1] != x[n-1] || dy[len(dy)-1] != y[n-1] {
		t.Errorf("first/last point not kept: (%v,%v) .. (%v,%v)", dx[0], dy[0], dx[len(dx)-1], dy[len(dy)-1])
	}
	for i, v := range spikes {
		if k := slices.Index(dx, x[i]); k < 0 || dy[k] != v {
			t.Errorf("spike at x=%v (y=%v) lost", x[i], v)
		}
	}
}

// checkDownsample asserts the invariants of a downsampled series.
func checkDownsample(t *testing.T, x, y, dx, dy []float64, x0, x1 float64, cols int) {
	t.Helper()
	if len(dx) != len(dy) {
		t.Fatalf("len(dx) %d != len(dy) %d", len(dx), len(dy))
	}
	cols = max(cols, 1)
	if len(x) <= 2*cols || !(x1 > x0) {
		if !slices.Equal(dx, x) || !equalNaN(dy, y) {
			t.Fatalf("short series or empty range: got %v %v, want the input", dx, dy)
		}
		return
	}
	// Every output point is an input point, in input order (NaN: any gap).
	j := 0
	for k := range dx {
		for j < len(x) && !(x[j] == dx[k] && (y[j] == dy[k] || math.IsNaN(y[j]) && math.IsNaN(dy[k]))) {
			j++
		}
		if j == len(x) {
			t.Fatalf("output point %d (%v, %v) is not an input point in order", k, dx[k], dy[k])
		}
		j++
	}
	// No two consecutive gaps.
	for k := 1; k < len(dy); k++ {
		if math.IsNaN(dy[k]) && math.IsNaN(dy[k-1]) {
			t.Fatalf("two consecutive gaps at %d", k)
		}
	}
	// The finite extremes survive, and the first and last finite points.
	lo, hi, first, last := math.Inf(1), math.Inf(-1), -1, -1
	for i, v := range y {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return
	}
	olo, ohi := math.Inf(1), math.Inf(-1)
	for _, v := range dy {
		if !math.IsNaN(v) {
			olo, ohi = math.Min(olo, v), math.Max(ohi, v)
		}
	}
	if olo != lo || ohi != hi {
		t.Fatalf("extremes [%v, %v], want [%v, %v]", olo, ohi, lo, hi)
	}
	fk := slices.IndexFunc(dy, func(v float64) bool { return !math.IsNaN(v) })
	lk := len(dy) - 1
	for math.IsNaN(dy[lk]) {
		lk--
	}
	if dx[fk] != x[first] || dy[fk] != y[first] || dx[lk] != x[last] || dy[lk] != y[last] {
		t.Fatalf("first/last finite points not kept")
	}
	// Size bound: per gap-free run, 2 points per column plus its ends.
	runs := 0
	for i, v := range y {
		if !math.IsNaN(v) && (i == 0 || math.IsNaN(y[i-1])) {
			runs++
		}
	}
	if len(dx) > runs*(2*cols+2)+runs {
		t.Fatalf("%d points for %d runs and %d columns", len(dx), runs, cols)
	}
}

func FuzzDownsample(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(2), int16(0), int16(10))
	f.Add([]byte{0, 255, 0, 255, 7, 7, 7, 255, 0, 3, 3}, uint8(1), int16(-5), int16(5))
	f.Add([]byte{9, 200, 201, 202, 9, 9}, uint8(3), int16(2), int16(1))
	f.Fuzz(func(t *testing.T, data []byte, cols uint8, a, b int16) {
		// Byte pairs: a step in x (0..3) and a value; 200..209 is NaN.
		var x, y []float64
		cur := 0.0
		for i := 0; i+1 < len(data); i += 2 {
			cur += float64(data[i] % 4)
			v := float64(data[i+1])
			if data[i+1] >= 200 && data[i+1] < 210 {
				v = math.NaN()
			}
			x, y = append(x, cur), append(y, v)
		}
		x0, x1 := float64(a), float64(b)
		dx, dy := Downsample(nil, nil, x, y, x0, x1, int(cols%16))
		checkDownsample(t, x, y, dx, dy, x0, x1, int(cols%16))
	})
}

func equalNaN(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(p, q float64) bool { return p == q || math.IsNaN(p) && math.IsNaN(q) })
}
