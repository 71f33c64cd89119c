package budget

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
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

// BenchmarkQuota measures a retry decision and a success report through
// the Quota interface, for each kind: no allocation.
func BenchmarkQuota(b *testing.B) {
	aws, _ := NewAWS(DefaultAWSConfig())
	pc, _ := NewPerCall(DefaultPerCallConfig())
	for _, tc := range []struct {
		name string
		q    Quota
	}{{"bucket", mustBucket(b, DefaultConfig())}, {"aws", aws}, {"per_call", pc}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var now time.Duration
			for b.Loop() {
				now += time.Millisecond
				tc.q.CallStarted(now)
				if ok, r := tc.q.Withdraw(now, policies.Timeout); ok {
					tc.q.Deposit(now, true, r)
				}
			}
		})
	}
}

func TestQuotaAllocs(t *testing.T) {
	aws, _ := NewAWS(DefaultAWSConfig())
	pc, _ := NewPerCall(DefaultPerCallConfig())
	for _, q := range []Quota{mustBucket(t, DefaultConfig()), aws, pc} {
		n := testing.AllocsPerRun(100, func() {
			q.CallStarted(0)
			ok, r := q.Withdraw(0, policies.Error)
			q.Deposit(0, ok, r)
		})
		if n != 0 {
			t.Errorf("%T: %v allocations", q, n)
		}
	}
}
