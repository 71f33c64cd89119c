// Package promtool runs Prometheus' promtool (Debian package prometheus,
// version 2.42 or later), which ressim uses to check its OpenMetrics
// export and to evaluate alerting rules with Prometheus' own rule engine.
package promtool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
)

// Name is the executable looked up on PATH.
const Name = "promtool"

// ErrMissing is returned when promtool is not installed.
var ErrMissing = errors.New("promtool not found on PATH (install Debian's prometheus package)")

// Path returns promtool's path, or ErrMissing.
func Path() (string, error) {
	p, err := exec.LookPath(Name)
	if err != nil {
		return "", ErrMissing
	}
	return p, nil
}

// Result is what one promtool invocation printed and its exit status.
type Result struct {
	Stdout, Stderr []byte
	// Code is the exit status: 0 success, 1 a failed check or test, 3 a
	// lint problem (check metrics), other values errors.
	Code int
}

// Run runs promtool with args and stdin (nil for none). A non-zero exit
// status is not an error: the caller reads Code; err is set only when
// promtool could not be started.
func Run(ctx context.Context, stdin io.Reader, args ...string) (Result, error) {
	p, err := Path()
	if err != nil {
		return Result{}, err
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, p, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	err = cmd.Run()
	res := Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.Code = ee.ExitCode()
	default:
		return res, fmt.Errorf("promtool %v: %w", args, err)
	}
	return res, nil
}
