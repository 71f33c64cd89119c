package timeout

import (
	"fmt"
	"time"
)

// Call is one edge of a call graph: Caller calls Callee with a per-attempt
// timeout, possibly several times.
type Call struct {
	// Caller and Callee name the two services (or operations). Both must
	// be non-empty.
	Caller, Callee string
	// Timeout is Caller's per-attempt timeout on this call; <= 0 means
	// none, which Check reports as Missing.
	Timeout time.Duration
	// Attempts is the number of attempts Caller makes, the first included;
	// 0 counts as 1. Must be >= 0.
	Attempts int
	// Backoff is the worst-case total of the delays between the attempts
	// (for exponential backoff capped at cap, at most (Attempts-1)*cap; the
	// source's bound uses Attempts*cap). Must be >= 0.
	Backoff time.Duration
}

// WorstCase returns the longest the call can take: Attempts*Timeout +
// Backoff, saturating at Forever; Forever if the call has no timeout.
func (c Call) WorstCase() time.Duration {
	if c.Timeout <= 0 {
		return Forever
	}
	k := time.Duration(max(c.Attempts, 1))
	if c.Timeout > Forever/k {
		return Forever
	}
	w := k * c.Timeout
	if c.Backoff > Forever-w {
		return Forever
	}
	return w + c.Backoff
}

// Kind classifies a Violation.
type Kind uint8

const (
	// Missing: a call has no timeout.
	Missing Kind = iota
	// NotLonger: the caller's timeout is not longer than the callee's own
	// per-attempt timeout on its downstream call.
	NotLonger
	// RetriesNotCovered: the caller's timeout is longer than one attempt of
	// the callee's downstream call but not than all of its attempts and
	// backoff.
	RetriesNotCovered
)

// String returns "missing", "not_longer" or "retries_not_covered".
func (k Kind) String() string {
	switch k {
	case Missing:
		return "missing"
	case NotLonger:
		return "not_longer"
	case RetriesNotCovered:
		return "retries_not_covered"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Violation is one broken rule, with the names and figures involved.
type Violation struct {
	Kind Kind
	// Outer is the call whose timeout is too short (for Missing, the call
	// without a timeout).
	Outer Call
	// Inner is the callee's own downstream call that Outer's timeout fails
	// to cover; zero for Missing.
	Inner Call
}

// String describes the violation in one line, naming the services.
func (v Violation) String() string {
	o, i := v.Outer, v.Inner
	switch v.Kind {
	case Missing:
		return fmt.Sprintf("%s -> %s: no timeout", o.Caller, o.Callee)
	case NotLonger:
		return fmt.Sprintf("%s -> %s: timeout %v not longer than %s -> %s timeout %v",
			o.Caller, o.Callee, o.Timeout, i.Caller, i.Callee, i.Timeout)
	default:
		return fmt.Sprintf("%s -> %s: timeout %v does not cover %s -> %s retries %d*%v + %v = %v",
			o.Caller, o.Callee, o.Timeout, i.Caller, i.Callee, max(i.Attempts, 1), i.Timeout, i.Backoff, i.WorstCase())
	}
}

// Check returns every violation of the timeout rules in the call graph
// calls, in a deterministic order: for each call in input order, first its
// Missing violation if it has no timeout, then one violation for each call
// its callee makes (in input order) that its timeout does not cover. Pairs
// where either call has no timeout are not compared (the Missing violation
// says it). It returns an error, and no violations, if a call has an empty
// name, negative Attempts or negative Backoff.
func Check(calls []Call) ([]Violation, error) {
	byCaller := make(map[string][]int, len(calls))
	for i, c := range calls {
		if c.Caller == "" || c.Callee == "" || c.Attempts < 0 || c.Backoff < 0 {
			return nil, fmt.Errorf("%w: call %d (%q -> %q): empty name, negative Attempts %d or negative Backoff %v",
				ErrInvalidConfig, i, c.Caller, c.Callee, c.Attempts, c.Backoff)
		}
		byCaller[c.Caller] = append(byCaller[c.Caller], i)
	}
	var out []Violation
	for _, outer := range calls {
		if outer.Timeout <= 0 {
			out = append(out, Violation{Kind: Missing, Outer: outer})
			continue
		}
		for _, j := range byCaller[outer.Callee] { // indices in input order
			inner := calls[j]
			switch {
			case inner.Timeout <= 0:
			case outer.Timeout <= inner.Timeout:
				out = append(out, Violation{Kind: NotLonger, Outer: outer, Inner: inner})
			case outer.Timeout <= inner.WorstCase():
				out = append(out, Violation{Kind: RetriesNotCovered, Outer: outer, Inner: inner})
			}
		}
	}
	return out, nil
}

// Hop is one service in a linear call chain.
type Hop struct {
	// Name names the service.
	Name string
	// Timeout, Attempts and Backoff describe this hop's call to the next
	// hop, as in Call. They are ignored for the last hop.
	Timeout  time.Duration
	Attempts int
	Backoff  time.Duration
}

// Chain turns a chain of hops, outermost first (client, gateway, service,
// database), into its calls: hops[i] calls hops[i+1].
func Chain(hops []Hop) []Call {
	if len(hops) < 2 {
		return nil
	}
	calls := make([]Call, 0, len(hops)-1)
	for i, h := range hops[:len(hops)-1] {
		calls = append(calls, Call{Caller: h.Name, Callee: hops[i+1].Name, Timeout: h.Timeout, Attempts: h.Attempts, Backoff: h.Backoff})
	}
	return calls
}

// CheckChain is Check(Chain(hops)).
func CheckChain(hops []Hop) ([]Violation, error) { return Check(Chain(hops)) }
