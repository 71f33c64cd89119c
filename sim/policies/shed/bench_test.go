package shed

import (
	"testing"

	"github.com/ressim/ressim/sim/policies"
)

func BenchmarkAdmit(b *testing.B) {
	s, _ := New(DefaultConfig())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Admit(0, policies.Priority(i%3), i%12, 10)
	}
}
