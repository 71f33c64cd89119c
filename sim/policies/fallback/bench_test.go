package fallback

import (
	"testing"
	"time"
)

func BenchmarkBeginFailServe(b *testing.B) {
	f, _ := New(DefaultConfig())
	cached := Cached{Present: true}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		now := time.Duration(i) * time.Millisecond
		a := f.Begin(now, cached)
		if i%4 == 0 {
			a.Fail()
		}
		f.Serve(now, a)
	}
}
