package gameday

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRunbookHTML(t *testing.T) {
	for _, c := range []struct{ md, want string }{
		{"# Pool exhausted", "<h1>Pool exhausted</h1>\n"},
		{"### a **b**", "<h3>a <strong>b</strong></h3>\n"},
		{"#### four", "<p>#### four</p>\n"},
		{"one\ntwo\n\nthree", "<p>one two</p>\n<p>three</p>\n"},
		{"- a\n- `b<c>`\n\n1. x\n2. y", "<ul>\n<li>a</li>\n<li><code>b&lt;c&gt;</code></li>\n</ul>\n<ol>\n<li>x</li>\n<li>y</li>\n</ol>\n"},
		{"```\n<script>alert(1)</script>\n```", "<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n"},
		{"<img src=x onerror=alert(1)> [a](javascript:x)", "<p>&lt;img src=x onerror=alert(1)&gt; [a](javascript:x)</p>\n"},
		{"a ` b ** c", "<p>a ` b ** c</p>\n"},
		{"**<b>**", "<p><strong>&lt;b&gt;</strong></p>\n"},
		{"```\nunclosed", "<pre><code>unclosed\n</code></pre>\n"},
		{"- item\n  more", "<ul>\n<li>item more</li>\n</ul>\n"},
		{"x\r\ny \"q\" & 'a'", "<p>x y &#34;q&#34; &amp; &#39;a&#39;</p>\n"},
	} {
		if got := RunbookHTML(c.md); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.md, got, c.want)
		}
	}
	long := strings.Repeat("é", MaxRunbook)
	if got := RunbookHTML(long); !strings.Contains(got, "longer than 64 KiB") || len(got) > 2*MaxRunbook {
		t.Errorf("a long runbook gives %d bytes", len(got))
	}
}

// ownTags matches the tags RunbookHTML writes.
var ownTags = regexp.MustCompile(`</?(` + strings.Join(RunbookTags, "|") + `)>`)

// FuzzRunbookHTML: whatever the markdown, the output holds no < or >
// outside the tags RunbookHTML writes (no attribute, no other tag), and
// is valid UTF-8.
func FuzzRunbookHTML(f *testing.F) {
	for _, s := range []string{"# a\n- b\n1. c\n```\nd\n```", "<script>", "**`<`**", "`**<x>**`", "- <a href=x>", "\x80<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := RunbookHTML(md)
		rest := ownTags.ReplaceAllString(out, "")
		if strings.ContainsAny(rest, "<>") {
			t.Fatalf("%q gives %q", md, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("%q gives invalid UTF-8", md)
		}
	})
}
