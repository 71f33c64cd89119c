package promtext

import (
	"fmt"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/sim/telemetry"
)

// The defaults of Options' budgets, and the largest file ReadFile reads.
const (
	DefaultMaxSeries          = 100_000
	DefaultMaxPoints          = 20_000_000
	DefaultMaxFileBytes int64 = 512 << 20
)

// Options tunes Parse. The zero value is ready to use.
type Options struct {
	// DefaultTime is the time, in milliseconds since the Unix epoch,
	// given to samples written without a timestamp.
	DefaultTime int64
	// MaxSeries bounds the number of distinct series (0: DefaultMaxSeries).
	MaxSeries int
	// MaxPoints bounds the number of points over all series
	// (0: DefaultMaxPoints).
	MaxPoints int
}

// withDefaults fills the zero budgets and refuses negative ones.
func (o Options) withDefaults() (Options, error) {
	if o.MaxSeries < 0 || o.MaxPoints < 0 {
		return o, fmt.Errorf("promtext: negative budget (MaxSeries %d, MaxPoints %d)", o.MaxSeries, o.MaxPoints)
	}
	if o.MaxSeries == 0 {
		o.MaxSeries = DefaultMaxSeries
	}
	if o.MaxPoints == 0 {
		o.MaxPoints = DefaultMaxPoints
	}
	return o, nil
}

// ReadFile reads and parses the file at path ("-" for standard input),
// refusing one larger than DefaultMaxFileBytes.
func ReadFile(path string, opt Options) (telemetry.Set, error) {
	data, err := input.ReadFile(path, DefaultMaxFileBytes)
	if err != nil {
		return telemetry.Set{}, fmt.Errorf("promtext: %w", err)
	}
	name := path
	if path == input.Stdin {
		name = input.StdinName
	}
	return Parse(name, data, opt)
}
