package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// cpuProfile writes a CPU profile of one command to a file (the root's
// --cpuprofile flag): what a user attaches to a report that a run is
// slow, and what scripts/pgo.sh merges into the profile that guides the
// compiler (cmd/ressim/default.pgo, docs/performance.md).
type cpuProfile struct {
	path string
	f    *os.File
	w    *errWriter
}

// errWriter keeps the first error of its writes: pprof drops the errors
// of the profile's writes, so a full disk (or --cpuprofile /dev/full)
// would lose the profile and exit 0.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// addFlag registers --cpuprofile on root, for every command.
func (p *cpuProfile) addFlag(root *cobra.Command) {
	root.PersistentFlags().StringVar(&p.path, "cpuprofile", "",
		"write a CPU profile of the command to `FILE` (for go tool pprof)")
}

// start begins profiling if --cpuprofile was given.
func (p *cpuProfile) start() error {
	if p.path == "" {
		return nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return usageError{fmt.Errorf("--cpuprofile: %w", err)}
	}
	w := &errWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.f, p.w = f, w
	return nil
}

// stop ends profiling and closes the file; it does nothing if start did
// not begin a profile.
func (p *cpuProfile) stop() error {
	if p.f == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := p.f.Close()
	if p.w.err != nil {
		err = p.w.err
	}
	p.f, p.w = nil, nil
	if err != nil {
		return fmt.Errorf("--cpuprofile %s: the profile is lost: %w", p.path, err)
	}
	return nil
}
