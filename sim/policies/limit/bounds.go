package limit

import "fmt"

// validateBounds checks the initial, minimum and maximum limits shared by
// every algorithm's Config.
func validateBounds(initial, min, max int) error {
	if min < 1 {
		return fmt.Errorf("%w: MinLimit %d: must be at least 1", ErrInvalidConfig, min)
	}
	if max < min {
		return fmt.Errorf("%w: MaxLimit %d: must be at least MinLimit %d", ErrInvalidConfig, max, min)
	}
	if initial < min || initial > max {
		return fmt.Errorf("%w: InitialLimit %d: must be within [MinLimit %d, MaxLimit %d]", ErrInvalidConfig, initial, min, max)
	}
	return nil
}
