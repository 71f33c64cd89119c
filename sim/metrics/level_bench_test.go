package metrics

import "testing"

func BenchmarkLevelAdd(b *testing.B) {
	var l Level
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		l.Add(i*1000, float64(1-2*(i&1)))
	}
}

func BenchmarkLevelSet(b *testing.B) {
	var l Level
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		l.Set(i*1000, float64(i&15))
	}
}

func BenchmarkLevelArea(b *testing.B) {
	var l Level
	l.Set(10, 3)
	b.ReportAllocs()
	for i := int64(0); b.Loop(); i++ {
		_ = l.Area(1000 + i)
	}
}
