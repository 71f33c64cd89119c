package importer

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ressim/ressim/sim/experiment"
)

// sourceComment matches the comment after every generated setting:
// "# FILE:LINE:COL KEY" (as package lint reads it).
//
// It is compiled on first use, so that commands that never import pay
// nothing for it at start-up.
var sourceComment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`#\s+(\S+):(\d+):(\d+)\s+(\S+)\s*$`)
})

// errImportBug marks a generated experiment that is invalid on a line
// that names no source: a mistake of the importer, not of the input.
var errImportBug = errors.New("the generated experiment is invalid (a bug in import)")

// checkGenerated validates the generated experiment. A value ressim
// rejects (out of range, or inconsistent with another) is reported as an
// error at the source position its line names, with ressim's reason; an
// error on a line naming no source is errImportBug.
func checkGenerated(text string) error {
	_, err := experiment.Parse("generated.toml", []byte(text))
	if err == nil {
		return nil
	}
	var list experiment.ErrorList
	if !errors.As(err, &list) {
		return fmt.Errorf("import: %w: %v", errImportBug, err)
	}
	lines := strings.Split(text, "\n")
	var out Errors
	for _, e := range list {
		var m []string
		if e.Line >= 1 && e.Line <= len(lines) {
			m = sourceComment().FindStringSubmatch(lines[e.Line-1])
		}
		if m == nil {
			return fmt.Errorf("import: %w: %v", errImportBug, e)
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		out = append(out, Diag{m[1], l, c, m[4], "not accepted by ressim: " + e.Msg})
	}
	return out
}
