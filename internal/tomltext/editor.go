package tomltext

import (
	"strings"
)

// Editor edits an experiment's text line by line: lines are commented
// out in place and new lines inserted after existing ones, so that every
// other line, comment and blank of the file is kept.
type Editor struct {
	// By names the tool in the "# replaced by BY:" comments ("import").
	By string
	// Linked lists key groups that replace each other: setting any group
	// of a set comments out the table's lines of every group of it (a
	// call hedges or retries, not both: {"retry", "hedge"}).
	Linked [][]string

	lines []string
	after map[int][]string // 0-based line -> lines inserted after it
}

// Line is one key = value line to write, with its comment (which starts
// with "#", or is empty).
type Line struct {
	Key, Value, Comment string
}

// NewEditor returns an editor of src; by names the tool in the comments
// it leaves.
func NewEditor(src, by string) *Editor {
	return &Editor{By: by, lines: strings.Split(src, "\n"), after: map[int][]string{}}
}

// String returns the edited text.
func (ed *Editor) String() string {
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

// Apply writes lines into the table containing 1-based line: each key
// group the lines set (the first part of a dotted key) replaces the
// table's own lines of that group, which are commented out; the new
// lines go after the table's last key, indented as line.
func (ed *Editor) Apply(line int, sts []Line) {
	at := line - 1
	if at < 0 || at >= len(ed.lines) || len(sts) == 0 {
		return
	}
	start, end := ed.block(at)
	groups := map[string]bool{}
	for _, st := range sts {
		groups[keyGroup(st.Key)] = true
	}
	for _, set := range ed.Linked {
		any := false
		for _, g := range set {
			any = any || groups[g]
		}
		for _, g := range set {
			groups[g] = groups[g] || any
		}
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
				ed.lines[k] = indentOf(ed.lines[k]) + "# replaced by " + ed.By + ": " + strings.TrimSpace(ed.lines[k])
			}
		}
		last, i = j, j
	}
	ind := indentOf(ed.lines[at])
	for _, st := range sts {
		l := ind + Key(st.Key) + " = " + st.Value
		if st.Comment != "" {
			l += " " + st.Comment
		}
		ed.after[last] = append(ed.after[last], l)
	}
}

// block returns the lines [start, end) of the table holding line at:
// after its header, up to the next header or the end.
func (ed *Editor) block(at int) (int, int) {
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

// InsertBefore inserts lines before 1-based line (a table's header, to
// add a table in front of it).
func (ed *Editor) InsertBefore(line int, lines []string) {
	at := line - 1
	if at < 0 || at >= len(ed.lines) || len(lines) == 0 {
		return
	}
	if at == 0 {
		ed.lines[0] = strings.Join(lines, "\n") + "\n" + ed.lines[0]
		return
	}
	ed.after[at-1] = append(ed.after[at-1], lines...)
}
