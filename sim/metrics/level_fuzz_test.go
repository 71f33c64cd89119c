package metrics

import "testing"

// FuzzLevel applies arbitrary sequences of Set, Add and Reset at arbitrary
// non-decreasing (and occasionally decreasing) instants to an integer level
// and checks Value, Area, Mean, Min and Max against an exact integer model.
func FuzzLevel(f *testing.F) {
	f.Add([]byte{0, 10, 3, 1, 5, 250, 2, 0, 0, 0, 7, 1})
	f.Add([]byte{2, 0, 0, 0, 0, 0, 1, 255, 255, 1, 1, 128})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var l Level
		var now, start, last, v, area, lo, hi int64
		for i := 0; i+3 <= len(ops); i += 3 {
			kind, step, arg := ops[i]%4, int64(ops[i+1]), int64(int8(ops[i+2]))
			at := now + step*1_000_003
			if kind == 3 {
				at = now - step // goes back: must be treated as now
			}
			if at > last {
				area += v * (at - last)
				last = at
			}
			now = max(now, at)
			switch kind {
			case 0, 3:
				l.Set(at, float64(arg))
				v = arg
			case 1:
				l.Add(at, float64(arg))
				v += arg
			case 2:
				l.Reset(at)
				start, area = now, 0
				lo, hi = v, v
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
			if l.Value() != float64(v) || l.Area(now) != float64(area) || l.Min() != float64(lo) || l.Max() != float64(hi) {
				t.Fatalf("op %d: value %v area %v min %v max %v, want %d %d %d %d",
					i/3, l.Value(), l.Area(now), l.Min(), l.Max(), v, area, lo, hi)
			}
			if el := now - start; el > 0 {
				if got, want := l.Mean(now), float64(area)/float64(el); got != want {
					t.Fatalf("op %d: Mean %v, want %v", i/3, got, want)
				}
			}
			if probe := now + 777; l.Area(probe) != float64(area+v*777) {
				t.Fatalf("op %d: Area(now+777) = %v, want %d", i/3, l.Area(probe), area+v*777)
			}
		}
	})
}
