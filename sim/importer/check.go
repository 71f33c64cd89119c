package importer

import (
	"errors"
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

// errImportBug marks a generated experiment that is invalid on a line
// that names no source: a mistake of the importer, not of the input.
var errImportBug = errors.New("the generated experiment is invalid (a bug in import)")

// ErrTooLarge marks an input that is legal but imports into more than
// one experiment file can hold: more calls than a handler's steps
// (topology.MaxSteps), or more than experiment.MaxFileSize bytes. The
// input is to be split; it is the input's problem, not ressim's.
var ErrTooLarge = errors.New("too large for one experiment file")

// checkCalls refuses more calls than the caller's handler can hold, before
// anything is generated.
func checkCalls(sk *skeleton) error {
	if n := len(sk.calls); n > topology.MaxSteps {
		return fmt.Errorf("import: %w: %s name %d calls, and the generated caller makes one step per call, at most %d (topology.MaxSteps); split the input into several files of at most %d and import each on its own",
			ErrTooLarge, files(sk), n, topology.MaxSteps, topology.MaxSteps)
	}
	return nil
}

// checkGenerated validates the generated experiment. One larger than an
// experiment file may be is ErrTooLarge. A value ressim rejects (out of
// range, or inconsistent with another) is reported as an error at the
// source position of its line (from, by 1-based line), with ressim's
// reason; an error on a line naming no source is errImportBug.
func checkGenerated(sk *skeleton, text string, from map[int]src) error {
	if err := tooLarge("the experiment generated from "+files(sk), text); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	_, err := experiment.Parse("generated.toml", []byte(text))
	if err == nil {
		return nil
	}
	var list experiment.ErrorList
	if !errors.As(err, &list) {
		return fmt.Errorf("import: %w: %v", errImportBug, err)
	}
	var out Errors
	for _, e := range list {
		s, ok := from[e.Line]
		if !ok {
			return fmt.Errorf("import: %w: %v", errImportBug, e)
		}
		out = append(out, s.diag("not accepted by ressim: %s", e.Msg))
	}
	return out
}

// tooLarge is ErrTooLarge, with the size and the limit, if text (what)
// is over experiment.MaxFileSize, which every command reading it would
// refuse.
func tooLarge(what, text string) error {
	if len(text) <= experiment.MaxFileSize {
		return nil
	}
	return fmt.Errorf("%w: %s is %d bytes, over the %d-byte (1 MiB) limit of an experiment file (experiment.MaxFileSize); split the input into several files and import each on its own",
		ErrTooLarge, what, len(text), experiment.MaxFileSize)
}

// files names the skeleton's sources for a message.
func files(sk *skeleton) string {
	if len(sk.files) == 1 {
		return sk.files[0]
	}
	return fmt.Sprintf("%d files (%s ... %s)", len(sk.files), sk.files[0], sk.files[len(sk.files)-1])
}
