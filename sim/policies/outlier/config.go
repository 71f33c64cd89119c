package outlier

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Config holds a detector's parameters, named after Envoy's
// OutlierDetection fields. DefaultConfig gives the numbers of «Устойчивость:
// circuit breaker, retry, bulkhead, backpressure, деградация», section 8.
type Config struct {
	// Consecutive5xx is the number of consecutive failed calls that ejects
	// a host (consecutive_5xx). Default 5. Must be >= 1.
	Consecutive5xx int
	// Interval is the time between ejection sweeps (interval). Default
	// 10 s. Must be > 0.
	Interval time.Duration
	// BaseEjectionTime is the ejection time unit (base_ejection_time): a
	// host is ejected for BaseEjectionTime times its backoff. Default 30 s.
	// Must be > 0.
	BaseEjectionTime time.Duration
	// MaxEjectionTime caps the ejection time (max_ejection_time). Default
	// 300 s. Must be >= BaseEjectionTime.
	MaxEjectionTime time.Duration
	// MaxEjectionPercent is the largest share of the cluster's hosts, in
	// percent, that may be ejected at once (max_ejection_percent). Default
	// 50 (the resilience article's, section 8; Envoy's default is 10). Must
	// be in [0, 100].
	MaxEjectionPercent int
	// AlwaysEjectOneHost allows one ejection even when MaxEjectionPercent
	// would refuse it (always_eject_one_host). Default false.
	AlwaysEjectOneHost bool
	// EnforcingConsecutive5xx is the probability, in percent, that a
	// consecutive-5xx detection actually ejects (enforcing_consecutive_5xx).
	// Default 100. Must be in [0, 100]; 0 disables the detector.
	EnforcingConsecutive5xx int
	// EnforcingSuccessRate is the probability, in percent, that a
	// success-rate detection actually ejects (enforcing_success_rate).
	// Default 100. Must be in [0, 100]; 0 disables the detector.
	EnforcingSuccessRate int
	// SuccessRateMinimumHosts is the number of hosts with enough volume
	// needed for success-rate detection (success_rate_minimum_hosts).
	// Default 5. Must be >= 1.
	SuccessRateMinimumHosts int
	// SuccessRateRequestVolume is the number of calls a host needs in one
	// interval to be included in success-rate detection
	// (success_rate_request_volume). Default 100. Must be >= 1.
	SuccessRateRequestVolume int
	// SuccessRateStdevFactor, divided by 1000, is the number of standard
	// deviations below the mean success rate at which a host is ejected
	// (success_rate_stdev_factor). Default 1900 (1.9). Must be >= 0.
	SuccessRateStdevFactor int
	// Rand supplies the draws for enforcing percentages strictly between 0
	// and 100; it is owned by the caller and required only then.
	Rand *rand.Rand
}

// DefaultConfig returns the resilience article's outlier detection
// (section 8: consecutive_5xx 5, interval 10 s, base_ejection_time 30 s,
// max_ejection_percent 50) with Envoy's defaults for the other fields.
func DefaultConfig() Config {
	return Config{
		Consecutive5xx:           5,
		Interval:                 10 * time.Second,
		BaseEjectionTime:         30 * time.Second,
		MaxEjectionTime:          300 * time.Second,
		MaxEjectionPercent:       50,
		EnforcingConsecutive5xx:  100,
		EnforcingSuccessRate:     100,
		SuccessRateMinimumHosts:  5,
		SuccessRateRequestVolume: 100,
		SuccessRateStdevFactor:   1900,
	}
}

// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
var ErrInvalidConfig = errors.New("outlier: invalid config")

// maxHosts bounds the cluster size given to New.
const maxHosts = 1 << 20

// Validate reports the first invalid field, wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
	}
	pct := func(v int) bool { return v >= 0 && v <= 100 }
	switch {
	case c.Consecutive5xx < 1:
		return bad("Consecutive5xx %d < 1", c.Consecutive5xx)
	case c.Interval <= 0:
		return bad("Interval %v <= 0", c.Interval)
	case c.BaseEjectionTime <= 0:
		return bad("BaseEjectionTime %v <= 0", c.BaseEjectionTime)
	case c.MaxEjectionTime < c.BaseEjectionTime:
		return bad("MaxEjectionTime %v < BaseEjectionTime %v", c.MaxEjectionTime, c.BaseEjectionTime)
	case !pct(c.MaxEjectionPercent):
		return bad("MaxEjectionPercent %d not in [0, 100]", c.MaxEjectionPercent)
	case !pct(c.EnforcingConsecutive5xx):
		return bad("EnforcingConsecutive5xx %d not in [0, 100]", c.EnforcingConsecutive5xx)
	case !pct(c.EnforcingSuccessRate):
		return bad("EnforcingSuccessRate %d not in [0, 100]", c.EnforcingSuccessRate)
	case c.SuccessRateMinimumHosts < 1:
		return bad("SuccessRateMinimumHosts %d < 1", c.SuccessRateMinimumHosts)
	case c.SuccessRateRequestVolume < 1:
		return bad("SuccessRateRequestVolume %d < 1", c.SuccessRateRequestVolume)
	case c.SuccessRateStdevFactor < 0:
		return bad("SuccessRateStdevFactor %d < 0", c.SuccessRateStdevFactor)
	case c.Rand == nil && (partial(c.EnforcingConsecutive5xx) || partial(c.EnforcingSuccessRate)):
		return bad("an enforcing percentage strictly between 0 and 100 needs Rand")
	}
	return nil
}

func partial(p int) bool { return p > 0 && p < 100 }

// ejectionTime returns min(BaseEjectionTime * backoff, MaxEjectionTime).
func (c Config) ejectionTime(backoff int) time.Duration {
	if time.Duration(backoff) >= c.MaxEjectionTime/c.BaseEjectionTime+1 {
		return c.MaxEjectionTime
	}
	return min(c.BaseEjectionTime*time.Duration(backoff), c.MaxEjectionTime)
}
