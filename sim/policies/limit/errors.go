package limit

import "errors"

// ErrInvalidConfig is wrapped by every error a constructor returns for a
// bad configuration; the message names the field.
var ErrInvalidConfig = errors.New("limit: invalid config")
