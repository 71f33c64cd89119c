package codel

// Verdict is CoDel's answer for one dequeued request.
type Verdict uint8

const (
	// Deliver: serve the request. The current dequeue is over.
	Deliver Verdict = iota
	// Drop: drop the request (reject it), then dequeue the next one and
	// ask again at the same instant, or call Empty if there is none.
	Drop
)

// String returns "deliver" or "drop".
func (v Verdict) String() string {
	switch v {
	case Deliver:
		return "deliver"
	case Drop:
		return "drop"
	}
	return "unknown"
}
