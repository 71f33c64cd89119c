package bulkhead

import (
	"testing"
	"time"
)

// BenchmarkAcquireRelease measures an uncontended Acquire plus Release.
func BenchmarkAcquireRelease(b *testing.B) {
	s, _ := NewSemaphore(DefaultSemaphoreConfig())
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		now++
		s.Acquire(now, NoDeadline)
		s.Release(now)
	}
}

// BenchmarkQueuedHandOff measures the contended path: a full bulkhead where
// each iteration queues one waiter and one Release hands it the slot.
func BenchmarkQueuedHandOff(b *testing.B) {
	s, _ := NewSemaphore(SemaphoreConfig{MaxConcurrentCalls: 20, MaxWaitDuration: time.Second})
	for range 20 {
		s.Acquire(0, NoDeadline)
	}
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		now++
		s.Acquire(now, NoDeadline)
		s.Release(now)
	}
}

// BenchmarkQueuedExpire measures a waiter that queues and then times out.
func BenchmarkQueuedExpire(b *testing.B) {
	p, _ := NewPool(PoolConfig{MaxThreadPoolSize: 20, QueueCapacity: 50})
	for range 20 {
		p.Acquire(0, NoDeadline)
	}
	b.ReportAllocs()
	now := time.Duration(0)
	for b.Loop() {
		now++
		a := p.Acquire(now, now+1)
		p.Expire(now+1, a.Ticket)
	}
}
