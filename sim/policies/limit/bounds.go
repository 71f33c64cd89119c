package limit

import "fmt"

// validateBounds checks the initial, minimum and maximum limits shared by
// every algorithm's Config.
func validateBounds(initial, min, max int) error {
	if min < 1 {
		return fmt.Errorf("MinLimit %d: must be at least 1", min)
	}
	if max < min {
		return fmt.Errorf("MaxLimit %d: must be at least MinLimit %d", max, min)
	}
	if initial < min || initial > max {
		return fmt.Errorf("InitialLimit %d: must be within [MinLimit %d, MaxLimit %d]", initial, min, max)
	}
	return nil
}
