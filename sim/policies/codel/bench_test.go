package codel

import (
	"testing"
	"time"
)

// BenchmarkDequeue measures one decision on an overloaded queue (sojourn
// 30 ms, so CoDel is dropping most of the time).
func BenchmarkDequeue(b *testing.B) {
	c, _ := New(DefaultConfig())
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		if c.Dequeue(now, now-30*time.Millisecond, 50) == Deliver {
			now += 100 * time.Microsecond
		}
	}
}

// BenchmarkDequeueGood measures the common case: sojourn below target.
func BenchmarkDequeueGood(b *testing.B) {
	c, _ := New(DefaultConfig())
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		c.Dequeue(now, now-time.Millisecond, 50)
		now += 100 * time.Microsecond
	}
}
