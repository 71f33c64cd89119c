package health

import (
	"errors"
	"fmt"
)

// Checks is a probe's check defined as the conjunction of named checks:
// the probe passes only if every check passes. Defining a readiness probe
// as Checks{"self", "recommendations"} models the trap that «Устойчивость:
// circuit breaker, retry, bulkhead, backpressure, деградация», section 11,
// warns about; Checks{"self"} is the correct probe. Create it with
// NewChecks; every check starts passing. It is not safe for concurrent use.
type Checks struct {
	names []string
	ok    []bool
	nok   int // checks failing
}

// ErrBadCheckName is wrapped by NewChecks's error for an empty or repeated
// name.
var ErrBadCheckName = errors.New("health: bad check name")

// NewChecks returns the conjunction of the named checks, all passing. Names
// must be non-empty and distinct; at least one is required.
func NewChecks(names ...string) (*Checks, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("health.NewChecks: %w: no checks", ErrBadCheckName)
	}
	for i, n := range names {
		if n == "" {
			return nil, fmt.Errorf("health.NewChecks: %w: empty name at %d", ErrBadCheckName, i)
		}
		for _, m := range names[:i] {
			if m == n {
				return nil, fmt.Errorf("health.NewChecks: %w: %q repeated", ErrBadCheckName, n)
			}
		}
	}
	c := &Checks{names: append([]string(nil), names...), ok: make([]bool, len(names))}
	for i := range c.ok {
		c.ok[i] = true
	}
	return c, nil
}

// Len returns the number of checks.
func (c *Checks) Len() int { return len(c.names) }

// Name returns the name of check i.
func (c *Checks) Name(i int) string { return c.names[i] }

// Index returns the index of the named check; ok is false if there is none.
func (c *Checks) Index(name string) (i int, ok bool) {
	for i, n := range c.names {
		if n == name {
			return i, true
		}
	}
	return -1, false
}

// Set records whether check i passes now.
func (c *Checks) Set(i int, passing bool) {
	if c.ok[i] == passing {
		return
	}
	c.ok[i] = passing
	if passing {
		c.nok--
	} else {
		c.nok++
	}
}

// SetByName records whether the named check passes now; it reports false
// if there is no such check.
func (c *Checks) SetByName(name string, passing bool) bool {
	i, ok := c.Index(name)
	if ok {
		c.Set(i, passing)
	}
	return ok
}

// Passing reports whether check i passes.
func (c *Checks) Passing(i int) bool { return c.ok[i] }

// Passed reports whether every check passes: the conjunction, the result
// to give Probe.Observe.
func (c *Checks) Passed() bool { return c.nok == 0 }

// FirstFailing returns the first failing check's name, in the order given
// to NewChecks; ok is false if every check passes.
func (c *Checks) FirstFailing() (name string, ok bool) {
	if c.nok == 0 {
		return "", false
	}
	for i, pass := range c.ok {
		if !pass {
			return c.names[i], true
		}
	}
	return "", false
}
