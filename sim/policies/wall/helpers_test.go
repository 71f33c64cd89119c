package wall

import (
	"time"

	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/deadline"
	"github.com/ressim/ressim/sim/policies/shed"
	"github.com/ressim/ressim/sim/policies/timeout"
)

func budgetConfig(capacity, ratio float64) *budget.Config {
	return &budget.Config{Capacity: capacity, Ratio: ratio, MinRetriesPerSec: 0}
}

func timeoutConfig(d time.Duration) *timeout.Config { return &timeout.Config{Attempt: d} }

func deadlineConfig() *deadline.Config {
	c := deadline.DefaultConfig()
	return &c
}

func shedConfig() *shed.Config {
	c := shed.DefaultConfig()
	return &c
}
