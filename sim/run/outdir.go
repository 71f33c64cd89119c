package run

import (
	"errors"
	"fmt"

	"github.com/ressim/ressim/internal/atomicfile"
)

// ErrOutput marks an output folder that cannot be created or written,
// found before any run.
var ErrOutput = errors.New("output folder unusable")

// stageOutput checks and stages the output folder dir (see
// atomicfile.Stage) before anything runs.
func stageOutput(dir string) (*atomicfile.Dir, error) {
	d, err := atomicfile.Stage(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOutput, err)
	}
	return d, nil
}
