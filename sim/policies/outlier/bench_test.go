package outlier

import (
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// BenchmarkRecord measures Record on a 16-host cluster, one failure in four.
func BenchmarkRecord(b *testing.B) {
	d, _ := New(DefaultConfig(), 16, 0)
	outs := [...]policies.Outcome{policies.Success, policies.Error, policies.Success, policies.Success}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Record(time.Duration(i), i&15, outs[(i>>4)&3])
	}
}

// BenchmarkTick measures one interval sweep over 16 hosts with
// success-rate detection.
func BenchmarkTick(b *testing.B) {
	cfg := DefaultConfig()
	cfg.SuccessRateRequestVolume = 1
	d, _ := New(cfg, 16, 0)
	events := make([]Event, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		for h := range 16 {
			d.Record(d.NextTickAt(), h, policies.Success)
		}
		events = d.Tick(d.NextTickAt(), events[:0])
	}
}
