package importer

import (
	"strings"
)

// editor edits an experiment's text line by line: lines are commented
// out in place and new lines inserted after existing ones, so that every
// other line, comment and blank of the file is kept.
type editor struct {
	lines []string
	after map[int][]string // 0-based line -> lines inserted after it
}

func newEditor(src string) *editor {
	return &editor{lines: strings.Split(src, "\n"), after: map[int][]string{}}
}

func (ed *editor) String() string {
	var b strings.Builder
	for i, l := range ed.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		for _, a := range ed.after[i] {
			b.WriteString("\n" + a)
		}
	}
	return b.String()
}

// apply writes settings into the table containing 1-based line: each
// key group the settings set (the first part of a dotted key) replaces
// the table's own lines of that group, which are commented out; the new
// lines go after the table's last key, indented as line.
func (ed *editor) apply(line int, sts []setting) {
	at := line - 1
	if at < 0 || at >= len(ed.lines) || len(sts) == 0 {
		return
	}
	start, end := ed.block(at)
	groups := map[string]bool{}
	for _, st := range sts {
		groups[keyGroup(st.key)] = true
	}
	// A call hedges or retries, not both: an imported hedge replaces the
	// step's retry, and an imported retry its hedge.
	if groups["retry"] || groups["hedge"] {
		groups["retry"], groups["hedge"] = true, true
	}
	last := at
	for i := start; i < end; i++ {
		t := strings.TrimSpace(ed.lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		j := i
		for d := depth(t); d > 0 && j+1 < end; { // a value over several lines
			j++
			d += depth(ed.lines[j])
		}
		if groups[keyGroup(t)] {
			for k := i; k <= j; k++ {
				ed.lines[k] = indentOf(ed.lines[k]) + "# replaced by import: " + strings.TrimSpace(ed.lines[k])
			}
		}
		last, i = j, j
	}
	ind := indentOf(ed.lines[at])
	for _, st := range sts {
		ed.after[last] = append(ed.after[last], ind+tomlKey(st.key)+" = "+st.value+" "+st.from.comment())
	}
}

// block returns the lines [start, end) of the table holding line at:
// after its header, up to the next header or the end.
func (ed *editor) block(at int) (int, int) {
	start := at
	for start > 0 && !isHeader(ed.lines[start]) {
		start--
	}
	if isHeader(ed.lines[start]) {
		start++
	}
	end := at + 1
	for end < len(ed.lines) && !isHeader(ed.lines[end]) {
		end++
	}
	return start, end
}

func isHeader(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "[") }

func indentOf(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

// keyGroup is the first part of the key a line (or a setting) defines:
// "retry" for `retry = {...}` and `retry.attempts = 3`.
func keyGroup(l string) string {
	k, _, _ := strings.Cut(l, "=")
	k, _, _ = strings.Cut(strings.TrimSpace(k), ".")
	return strings.Trim(strings.TrimSpace(k), `"'`)
}

// depth is how many arrays and inline tables a line opens and does not
// close, outside strings and comments.
func depth(l string) int {
	d := 0
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return d
		case c == '[' || c == '{':
			d++
		case c == ']' || c == '}':
			d--
		}
	}
	return d
}
