package wall

import (
	"context"

	"github.com/ressim/ressim/sim/policies/fallback"
)

// Do calls fn through c's call path (see Caller.Do) and returns its value.
// On failure it returns the zero T and an *Error. If c has a fallback, a
// degraded answer served by Config.Fallback.Serve returns the zero T and a
// nil error; use DoFallback to have the degraded answer typed too.
//
// It is safe for concurrent use, as the Caller is.
func Do[T any](ctx context.Context, c *Caller, fn func(context.Context) (T, error)) (T, error) {
	var v T
	err := c.Do(ctx, func(ctx context.Context) error {
		r, err := fn(ctx)
		if err == nil {
			v = r
		}
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// FallbackFunc is a typed degraded answer: the value to serve at level (Stale,
// Generic or Empty) given the error that made the main path fail (an *Error;
// wrapping ErrKilled when the feature's kill switch is on). An error moves on
// to the next level.
type FallbackFunc[T any] func(ctx context.Context, level fallback.Level, cause error) (T, error)

// DoFallback calls fn through c's call path and, when it fails, answers from
// fb, walking the degradation hierarchy of c's Config.Fallback (its levels,
// kill switch and alert; fb replaces Config.Fallback.Serve for this call).
// It returns the value, the level it was answered at (fallback.Fresh for
// fn's own answer) and a nil error, or the zero T, the level where the
// hierarchy ended (fallback.FeatureError) and the main path's error.
//
// If c has no fallback configured, a failed call is answered by fb once, at
// level fallback.Generic; if that fails too, DoFallback returns the level
// fallback.SystemError and the main path's error.
func DoFallback[T any](ctx context.Context, c *Caller, fn func(context.Context) (T, error), fb FallbackFunc[T]) (T, fallback.Level, error) {
	var v T
	main := func(ctx context.Context) error {
		r, err := fn(ctx)
		if err == nil {
			v = r
		}
		return err
	}
	serve := func(ctx context.Context, level fallback.Level, cause error) error {
		r, err := fb(ctx, level, cause)
		if err == nil {
			v = r
		}
		return err
	}
	if c.feature == nil {
		err := c.run(ctx, main, nil, nil)
		if err == nil {
			return v, fallback.Fresh, nil
		}
		if serve(ctx, fallback.Generic, err) == nil {
			return v, fallback.Generic, nil
		}
		var zero T
		return zero, fallback.SystemError, err
	}
	level, err := c.doLevel(ctx, main, serve)
	if err != nil {
		var zero T
		return zero, level, err
	}
	return v, level, nil
}
