package wall

import (
	"context"

	"github.com/ressim/ressim/sim/policies"
)

type priorityKey struct{}

// WithPriority returns a copy of ctx that carries the request's priority
// class, for load shedding. The priority travels with the request like its
// deadline does.
func WithPriority(ctx context.Context, p policies.Priority) context.Context {
	return context.WithValue(ctx, priorityKey{}, p)
}

// PriorityFrom returns the priority ctx carries, or policies.Normal if none.
func PriorityFrom(ctx context.Context) policies.Priority {
	if p, ok := ctx.Value(priorityKey{}).(policies.Priority); ok {
		return p
	}
	return policies.Normal
}
