package gameday

import (
	"html"
	"strings"
)

// MaxRunbook bounds the markdown RunbookHTML reads (64 KiB); the rest is
// cut, and the output says so.
const MaxRunbook = 64 << 10

// RunbookTags are the only tags RunbookHTML writes, without attributes.
var RunbookTags = []string{"h1", "h2", "h3", "p", "ul", "ol", "li", "strong", "code", "pre"}

// RunbookHTML turns a runbook's markdown, untrusted, into HTML for the
// page: a small subset of markdown (headings # to ###, paragraphs, "- "
// and "1. " lists, **bold**, `code`, ``` fenced code blocks), every other
// character escaped as text, so that no link, image, attribute or raw
// HTML survives. Only the tags of RunbookTags appear, without
// attributes.
func RunbookHTML(md string) string {
	cut := len(md) > MaxRunbook
	if cut {
		md = md[:MaxRunbook] // a rune cut in two becomes U+FFFD below
	}
	md = strings.ToValidUTF8(strings.ReplaceAll(md, "\r\n", "\n"), "\uFFFD")
	var w runbookWriter
	for _, line := range strings.Split(md, "\n") {
		w.line(line)
	}
	w.close()
	if cut {
		w.b.WriteString("<p>(the runbook is longer than 64 KiB: the rest is not shown)</p>\n")
	}
	return w.b.String()
}

// runbookWriter writes the blocks of a runbook as its lines come.
type runbookWriter struct {
	b     strings.Builder
	open  string   // the open block: "p", "ul", "ol", "pre" or ""
	para  []string // the open paragraph's lines
	fence bool
}

func (w *runbookWriter) line(line string) {
	if w.fence {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			w.b.WriteString("</code></pre>\n")
			w.fence, w.open = false, ""
			return
		}
		w.b.WriteString(html.EscapeString(line) + "\n")
		return
	}
	t := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(t, "```"):
		w.close()
		w.b.WriteString("<pre><code>")
		w.fence, w.open = true, "pre"
	case t == "":
		w.close()
	case heading(t) > 0:
		w.close()
		n := heading(t)
		tag := "h" + string(rune('0'+n))
		w.b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(t[n:])) + "</" + tag + ">\n")
	case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
		w.item("ul", t[2:])
	case ordered(t) > 0:
		w.item("ol", t[ordered(t):])
	case w.open == "ul" || w.open == "ol":
		// A line under a list item continues it.
		w.b.WriteString(" " + inline(t))
	default:
		if w.open != "p" {
			w.close()
			w.open = "p"
		}
		w.para = append(w.para, t)
	}
}

// item writes a list item, opening the list kind if needed.
func (w *runbookWriter) item(kind, text string) {
	if w.open != kind {
		w.close()
		w.b.WriteString("<" + kind + ">\n")
		w.open = kind
	} else {
		w.b.WriteString("</li>\n")
	}
	w.b.WriteString("<li>" + inline(strings.TrimSpace(text)))
}

// close ends the open block.
func (w *runbookWriter) close() {
	switch w.open {
	case "p":
		w.b.WriteString("<p>" + inline(strings.Join(w.para, " ")) + "</p>\n")
		w.para = nil
	case "ul", "ol":
		w.b.WriteString("</li>\n</" + w.open + ">\n")
	case "pre":
		w.b.WriteString("</code></pre>\n") // an unclosed fence ends with the runbook
		w.fence = false
	}
	w.open = ""
}

// heading returns the level (1-3) of a heading line, or 0.
func heading(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 3 || n >= len(t) || t[n] != ' ' {
		return 0
	}
	return n
}

// ordered returns the length of an ordered list item's marker ("12. "),
// or 0.
func ordered(t string) int {
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n == 0 || !strings.HasPrefix(t[n:], ". ") {
		return 0
	}
	return n + 2
}

// inline escapes text, with `code` spans and **bold** as tags.
func inline(text string) string {
	var b strings.Builder
	parts := strings.Split(text, "`")
	if len(parts)%2 == 0 { // an unpaired backtick is text
		parts[len(parts)-2] += "`" + parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
			continue
		}
		bold := strings.Split(p, "**")
		if len(bold)%2 == 0 {
			bold[len(bold)-2] += "**" + bold[len(bold)-1]
			bold = bold[:len(bold)-1]
		}
		for j, s := range bold {
			if j%2 == 1 {
				b.WriteString("<strong>" + html.EscapeString(s) + "</strong>")
			} else {
				b.WriteString(html.EscapeString(s))
			}
		}
	}
	return b.String()
}
