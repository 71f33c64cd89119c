package fallback

// Level is a rung of the degradation hierarchy, from best (Fresh) to worst
// (SystemError).
type Level uint8

const (
	// Fresh is the normal answer from the main path.
	Fresh Level = iota
	// Stale is a cached answer past its freshness, served on error
	// (stale-if-error, RFC 5861).
	Stale
	// Generic is a non-personal answer (top sellers, "in stock").
	Generic
	// Empty is an empty block, honestly marked as unavailable.
	Empty
	// FeatureError is an explicit error for this feature, with a retry.
	FeatureError
	// SystemError is the failure of the whole request.
	SystemError

	// NumLevels is the number of levels.
	NumLevels = 6
)

var levelNames = [NumLevels]string{"fresh", "stale", "generic", "empty", "feature_error", "system_error"}

// String returns the level's snake_case name.
func (l Level) String() string {
	if l < NumLevels {
		return levelNames[l]
	}
	return "unknown"
}

// ParseLevel is the inverse of String. It reports false for an unknown name.
func ParseLevel(s string) (Level, bool) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), true
		}
	}
	return 0, false
}

// Degraded reports whether the level is a degraded but useful answer
// (Stale, Generic, Empty): an HTTP 200 that must not count as a plain
// success.
func (l Level) Degraded() bool { return l == Stale || l == Generic || l == Empty }

// Failed reports whether the level is an error (FeatureError,
// SystemError).
func (l Level) Failed() bool { return l == FeatureError || l == SystemError }
