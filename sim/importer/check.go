package importer

import (
	"errors"
	"fmt"

	"github.com/ressim/ressim/sim/experiment"
)

// errImportBug marks a generated experiment that is invalid on a line
// that names no source: a mistake of the importer, not of the input.
var errImportBug = errors.New("the generated experiment is invalid (a bug in import)")

// checkGenerated validates the generated experiment. A value ressim
// rejects (out of range, or inconsistent with another) is reported as an
// error at the source position of its line (from, by 1-based line), with
// ressim's reason; an error on a line naming no source is errImportBug.
func checkGenerated(text string, from map[int]src) error {
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
