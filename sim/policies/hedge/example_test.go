package hedge_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/hedge"
)

// A call hedged at 10 ms with at most 3 copies, where an overloaded replica
// answering 503 (Rejected) is non-fatal: the first copy hangs, the hedge at
// 10 ms is refused at 12 ms, which sends the third copy at once instead of
// at 20 ms, and the third copy's answer at 15 ms wins; the hung first copy
// is cancelled and its late answer is ignored.
func Example() {
	cfg := hedge.DefaultConfig()
	cfg.MaxAttempts = 3
	cfg.Delay = 10 * time.Millisecond // size it at the dependency's p95
	cfg.NonFatal = hedge.NewOutcomeSet(policies.Rejected)
	pol, err := hedge.New(cfg)
	if err != nil {
		panic(err)
	}
	show := func(now time.Duration, event string, d hedge.Decision) hedge.Call {
		line := fmt.Sprintf("%-5v %-22s %-7v %-10v", now, event, d.Action, d.Reason)
		switch {
		case d.Action == hedge.Send:
			line += fmt.Sprintf(" send %d", d.Send)
		case d.Action.Done():
			line += fmt.Sprintf(" %v, cancel %d", d.Outcome, d.Cancel)
		}
		if d.NextAt != hedge.Never {
			line += fmt.Sprintf(", next hedge at %v", d.NextAt)
		}
		fmt.Println(strings.TrimSpace(line))
		return d.Next
	}
	ms := time.Millisecond
	call := show(0, "start", pol.Start(0, hedge.Call{}, 0.5))
	call = show(10*ms, "hedge due", pol.Due(10*ms, call))
	call = show(12*ms, "copy 2: rejected", pol.Outcome(12*ms, call, policies.Rejected))
	call = show(15*ms, "copy 3: success", pol.Outcome(15*ms, call, policies.Success))
	call = show(40*ms, "copy 1: success (late)", pol.Outcome(40*ms, call, policies.Success))
	fmt.Println("copies sent:", call.Sent(), "of at most", pol.MaxCopies())
	// Output:
	// 0s    start                  send    start      send 1, next hedge at 10ms
	// 10ms  hedge due              send    delay      send 1, next hedge at 20ms
	// 12ms  copy 2: rejected       send    non_fatal  send 1
	// 15ms  copy 3: success        succeed success    success, cancel 1
	// 40ms  copy 1: success (late) wait    ignored
	// copies sent: 3 of at most 3
}
