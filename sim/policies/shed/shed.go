package shed

import (
	"fmt"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// Decision is the answer for one request.
type Decision struct {
	// Admitted reports whether the request may proceed.
	Admitted bool
	// Priority is the class the request was judged as.
	Priority policies.Priority
	// Utilization is the utilisation the decision was made at.
	Utilization float64
	// Status is the HTTP status to answer a shed request with (503 or
	// 429); 0 when admitted.
	Status int
	// RetryAfter is the Retry-After hint for a shed request; 0 when
	// admitted.
	RetryAfter time.Duration
}

// Stats counts decisions per class, indexed by policies.Priority.
type Stats struct {
	// Admitted[p] counts admitted requests of class p.
	Admitted [policies.NumPriorities]uint64
	// Shed[p] counts shed requests of class p.
	Shed [policies.NumPriorities]uint64
}

// Shedder admits or sheds requests by priority class. The zero value is
// not usable; call New.
type Shedder struct {
	cfg   Config
	stats Stats
}

// New returns a Shedder, or an error if cfg is invalid.
func New(cfg Config) (*Shedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("shed.New: %w", err)
	}
	return &Shedder{cfg: cfg}, nil
}

// class maps an out-of-range priority to Background.
func class(p policies.Priority) policies.Priority {
	if p >= policies.NumPriorities {
		return policies.Background
	}
	return p
}

// Utilization returns used / capacity, or 1 (full) when capacity <= 0.
func Utilization(used, capacity int) float64 {
	if capacity <= 0 {
		return 1
	}
	return float64(used) / float64(capacity)
}

// Admit decides on a request of class p arriving at now while used of
// capacity units (in-flight or queued requests) are taken. It is
// AdmitUtilization(now, p, Utilization(used, capacity)).
func (s *Shedder) Admit(now time.Duration, p policies.Priority, used, capacity int) Decision {
	return s.AdmitUtilization(now, p, Utilization(used, capacity))
}

// AdmitUtilization decides on a request of class p at utilisation u: it is
// admitted when u < Threshold[p]. now is not used by the decision; it is
// taken for symmetry with the other policies.
func (s *Shedder) AdmitUtilization(now time.Duration, p policies.Priority, u float64) Decision {
	p = class(p)
	if u < s.cfg.Threshold[p] {
		s.stats.Admitted[p]++
		return Decision{Admitted: true, Priority: p, Utilization: u}
	}
	s.stats.Shed[p]++
	return Decision{Priority: p, Utilization: u, Status: s.cfg.Status, RetryAfter: s.cfg.RetryAfter}
}

// Sheds reports whether class p is shed at utilisation u, without
// counting anything.
func (s *Shedder) Sheds(p policies.Priority, u float64) bool {
	return !(u < s.cfg.Threshold[class(p)])
}

// Stats returns the per-class counters.
func (s *Shedder) Stats() Stats { return s.stats }

// Config returns the configuration.
func (s *Shedder) Config() Config { return s.cfg }
