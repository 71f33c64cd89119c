package alerts

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// ruleFile is the part of a Prometheus rules file DefaultHorizon reads.
type ruleFile struct {
	Groups []struct {
		Rules []struct {
			Record string `yaml:"record"`
			Alert  string `yaml:"alert"`
			Expr   string `yaml:"expr"`
			For    string `yaml:"for"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// It is compiled on first use (start-up pays nothing for it).
var (
	rangeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[\s*([0-9][0-9a-z]*)\s*(?::[^\]]*)?\]`)
	})
	identRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*`)
	})
	promDurRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([0-9]+)(ms|s|m|h|d|w|y)`)
	})
)

// DefaultHorizon is how long ressim alerts keeps simulating past a run's
// end so that alerts still firing there can resolve: the longest time
// one alert of the rules file needs, its window plus its for. An
// alert's window is the longest range (range vector or subquery) in its
// expression, following the recording rules it names; for an "and" of
// parts (a multi-window burn rate) the shortest of the parts' windows,
// since the alert resolves as soon as one part stops matching, and for an
// "or" of parts (Sloth's pairs of burn rates) the longest. The rules file
// is read whole (checkRules has bounded it).
func DefaultHorizon(rules string) (time.Duration, error) {
	b, err := os.ReadFile(rules)
	if err != nil {
		return 0, fmt.Errorf("alerts: %w", err)
	}
	var f ruleFile
	if err := yaml.Unmarshal(b, &f); err != nil {
		return 0, fmt.Errorf("alerts: rules %s: %w", rules, err)
	}
	records := make(map[string]string) // record name -> expr; lookup only
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				records[r.Record] = r.Expr
			}
		}
	}
	w := &windower{records: records, memo: make(map[string]time.Duration)}
	var h time.Duration
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			forD, _ := promDuration(r.For)
			h = max(h, w.expr(r.Expr, 0)+forD)
		}
	}
	return h, nil
}

// windower computes expressions' windows, memoising recording rules'.
type windower struct {
	records map[string]string
	memo    map[string]time.Duration
}

// expr is e's window. PromQL's "and" binds tighter than "or": an "or"
// of parts is active while one is, so it resolves with the slowest part;
// an "and" resolves as soon as one part stops, with the quickest.
func (w *windower) expr(e string, depth int) time.Duration {
	var out time.Duration
	for _, alt := range splitTop(e, "or") {
		var and time.Duration
		for i, p := range splitTop(alt, "and") {
			if d := w.part(p, depth); i == 0 || d < and {
				and = d
			}
		}
		out = max(out, and)
	}
	return out
}

// part is the window of a parenthesised expression, else the longest
// range in p or in the recording rules it names.
func (w *windower) part(p string, depth int) time.Duration {
	if depth > 16 { // a cycle promtool would have refused; stop anyway
		return 0
	}
	if inner, ok := unwrap(p); ok {
		return w.expr(inner, depth+1)
	}
	var out time.Duration
	for _, m := range rangeRE().FindAllStringSubmatch(p, -1) {
		if d, ok := promDuration(m[1]); ok {
			out = max(out, d)
		}
	}
	for _, id := range identRE().FindAllString(stripStrings(p), -1) {
		sub, ok := w.records[id]
		if !ok {
			continue
		}
		d, seen := w.memo[id]
		if !seen {
			d = w.expr(sub, depth+1)
			w.memo[id] = d
		}
		out = max(out, d)
	}
	return out
}

// unwrap returns p without the parentheses around all of it, if they
// are.
func unwrap(p string) (string, bool) {
	p = strings.TrimSpace(p)
	if len(p) < 2 || p[0] != '(' || p[len(p)-1] != ')' {
		return "", false
	}
	inner := p[1 : len(p)-1]
	parts := scanTop(inner, "")
	return inner, parts.balanced
}

// splitTop splits e at the operator op (a word) outside parentheses,
// brackets, braces and strings.
func splitTop(e, op string) []string {
	return scanTop(e, op).parts
}

type scan struct {
	parts []string
	// balanced: no closing bracket without its opening one at the top
	// level.
	balanced bool
}

func scanTop(e, op string) scan {
	sc := scan{balanced: true}
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				sc.balanced = false
			}
		case op != "" && depth == 0 && strings.HasPrefix(e[i:], op) && wordBoundary(e, i, i+len(op)):
			sc.parts = append(sc.parts, e[start:i])
			start = i + len(op)
			i += len(op) - 1
		}
	}
	sc.parts = append(sc.parts, e[start:])
	return sc
}

func wordBoundary(e string, from, to int) bool {
	isWord := func(c byte) bool {
		return c == '_' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return (from == 0 || !isWord(e[from-1])) && (to == len(e) || !isWord(e[to]))
}

// stripStrings blanks quoted strings (label values are not rule names).
func stripStrings(e string) string {
	b := []byte(e)
	var quote byte
	for i := 0; i < len(b); i++ {
		switch {
		case quote != 0:
			if b[i] == '\\' && i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
				continue
			}
			if b[i] == quote {
				quote = 0
			}
			b[i] = ' '
		case b[i] == '"' || b[i] == '\'' || b[i] == '`':
			quote = b[i]
			b[i] = ' '
		}
	}
	return string(b)
}

// promDuration parses a Prometheus duration (1h30m, 5m, 1d, 500ms); ""
// is 0.
func promDuration(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	units := map[string]time.Duration{"ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour,
		"d": 24 * time.Hour, "w": 7 * 24 * time.Hour, "y": 365 * 24 * time.Hour}
	ms := promDurRE().FindAllStringSubmatchIndex(s, -1)
	var d time.Duration
	end := 0
	for _, m := range ms {
		if m[0] != end {
			return 0, false
		}
		n, err := strconv.ParseInt(s[m[2]:m[3]], 10, 64)
		if err != nil {
			return 0, false
		}
		d += time.Duration(n) * units[s[m[4]:m[5]]]
		end = m[1]
	}
	return d, end == len(s) && end > 0
}
