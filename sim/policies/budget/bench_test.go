package budget

import (
	"testing"
	"time"
)

func BenchmarkTryRetry(b *testing.B) {
	bk := mustBucket(b, DefaultConfig())
	b.ReportAllocs()
	var now time.Duration
	for b.Loop() {
		now += time.Millisecond
		bk.TryRetry(now)
	}
}

func BenchmarkRecordSuccess(b *testing.B) {
	bk := mustBucket(b, DefaultConfig())
	b.ReportAllocs()
	var now time.Duration
	for b.Loop() {
		now += time.Millisecond
		bk.RecordSuccess(now)
	}
}

func BenchmarkConcurrency(b *testing.B) {
	c, err := NewConcurrency(DefaultConcurrencyConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c.TryAcquire(100) {
			c.Release()
		}
	}
}
