package lint

import (
	"regexp"
	"strings"
	"sync"
)

// ignoreRE matches a lint-ignore comment: the rule IDs (comma-separated)
// and the rest of the line, which must give the reason after "because".
// It is compiled on first use (start-up pays nothing for it).
var ignoreRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`#\s*ressim:lint-ignore\s+(RS\d{3}(?:\s*,\s*RS\d{3})*)(.*)$`)
})

// ignore is one lint-ignore comment.
type ignore struct {
	line, col int
	rules     []string
	reason    string // "" when the comment gives none
}

// scanIgnores finds the lint-ignore comments in src, by line (1-based).
func scanIgnores(src []byte) map[int]ignore {
	out := map[int]ignore{}
	for i, line := range strings.Split(string(src), "\n") {
		m := ignoreRE().FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		ig := ignore{line: i + 1, col: len([]rune(line[:m[0]])) + 1}
		for _, id := range strings.Split(line[m[2]:m[3]], ",") {
			ig.rules = append(ig.rules, strings.TrimSpace(id))
		}
		rest := strings.TrimSpace(line[m[4]:m[5]])
		if r, ok := strings.CutPrefix(rest, "because"); ok && strings.TrimSpace(r) != "" {
			ig.reason = strings.TrimSpace(r)
		}
		out[i+1] = ig
	}
	return out
}

// covers returns the reason of the comment that silences rule at line
// (on the line itself or on the line before), if any.
func covers(igs map[int]ignore, rule string, line int) (string, bool) {
	for _, l := range []int{line, line - 1} {
		ig, ok := igs[l]
		if !ok || ig.reason == "" {
			continue
		}
		for _, r := range ig.rules {
			if r == rule {
				return ig.reason, true
			}
		}
	}
	return "", false
}
