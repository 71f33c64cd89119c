package lint

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// sourceComment matches the comment package importer writes after every
// generated setting: "# FILE:LINE:COL KEY".
// It is compiled on first use (start-up pays nothing for it).
var sourceComment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`#\s+(\S+):(\d+):(\d+)\s+(\S+)\s*$`)
})

// MapToSources moves each finding on a generated experiment (generated
// is its text) to the source position named by the comment on the
// finding's line, so that a finding points into the Envoy, gRPC or
// resilience4j file rather than the generated TOML. A finding on a line
// without such a comment (a placeholder, a skeleton table) keeps its
// position in the generated file. Findings are re-sorted.
func MapToSources(r *Report, generated []byte) {
	lines := strings.Split(string(generated), "\n")
	move := func(f *Finding) {
		if f.Line < 1 || f.Line > len(lines) {
			return
		}
		m := sourceComment().FindStringSubmatch(lines[f.Line-1])
		if m == nil {
			return
		}
		l, err1 := strconv.Atoi(m[2])
		c, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil {
			return
		}
		f.File, f.Line, f.Col, f.Key = m[1], l, c, m[4]
	}
	for i := range r.Findings {
		move(&r.Findings[i])
	}
	for i := range r.Suppressed {
		move(&r.Suppressed[i].Finding)
	}
	sortFindings(r.Findings)
}
