package lifo

import (
	"testing"
	"time"
)

func BenchmarkQueuePushPop(b *testing.B) {
	q, _ := NewQueue[int](1024)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.PushBack(Entry[int]{Value: i, Deadline: time.Duration(i)})
		if i%2 == 0 {
			q.PopFront()
		} else {
			q.PopBack()
		}
	}
}

func BenchmarkAdaptivePushNext(b *testing.B) {
	a, _ := NewAdaptiveQueue[int](1024, DefaultConfig())
	b.ReportAllocs()
	now := time.Duration(0)
	for i := 0; b.Loop(); i++ {
		now += 100 * time.Microsecond
		a.Push(now, i, now+time.Second)
		a.Push(now, i, now+time.Second)
		for {
			if _, r := a.Next(now); r != Expired {
				break
			}
		}
	}
}
