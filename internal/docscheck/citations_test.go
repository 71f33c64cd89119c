package docscheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Title is how every file that mentions the article behind ressim's
// patterns must name it at least once (docs/policies.md, section Sources).
const Title = "«Устойчивость: circuit breaker, retry, bulkhead, backpressure, деградация»"

// checkedExt are the extensions of the files the walk reads.
var checkedExt = map[string]bool{
	".go": true, ".md": true, ".toml": true, ".sh": true, ".py": true, ".txt": true,
}

// skippedDirs are not walked, relative to the module root.
var skippedDirs = map[string]bool{
	".git": true,
}

// unnamed are phrases that refer to a source without naming it. They are
// written as patterns so that this file does not match itself: "the" and
// "brief" separated by white space, "brief" with an apostrophe and "s",
// "source" followed by "article" or "text", and so on. An internal design
// document is never a citation: cite what it rests on instead.
var unnamed = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bthe\s+brief\b`),
	regexp.MustCompile(`(?i)\bbrief[’']s\b`),
	regexp.MustCompile(`\bBRIEF\b`),
	regexp.MustCompile(`(?i)\bsource\s+(article|text)\b`),
	regexp.MustCompile(`(?i)\bseed\s+(article|text)\b`),
}

// mentionsArticle matches "article", "articles" and "article's".
var mentionsArticle = regexp.MustCompile(`(?i)\barticles?\b`)

// lineJoin matches a line break and the comment marker ("//" or "#") and
// blanks that start the next line, so that a phrase or the title wrapped
// over lines of a comment reads as one line.
var lineJoin = regexp.MustCompile(`\n[ \t]*(//|#)?[ \t]*`)

var blanks = regexp.MustCompile(`[ \t]+`)

// normalize joins wrapped lines and collapses runs of blanks.
func normalize(s string) string {
	return blanks.ReplaceAllString(lineJoin.ReplaceAllString(s, " "), " ")
}

// problems returns what is wrong with a file's text: each unnamed-source
// phrase, with some context, and a mention of "article" in a file that
// never gives the title.
func problems(text string) []string {
	n := normalize(text)
	var out []string
	for _, re := range unnamed {
		for _, loc := range re.FindAllStringIndex(n, -1) {
			out = append(out, fmt.Sprintf("unnamed source %q in %q", n[loc[0]:loc[1]], excerpt(n, loc[0], loc[1])))
		}
	}
	if loc := mentionsArticle.FindStringIndex(n); loc != nil && !strings.Contains(n, Title) {
		out = append(out, fmt.Sprintf("mentions an article (%q) but never gives the title %s", excerpt(n, loc[0], loc[1]), Title))
	}
	return out
}

// excerpt returns up to 40 bytes each side of n[i:j], cut at rune starts.
func excerpt(n string, i, j int) string {
	i, j = max(0, i-40), min(len(n), j+40)
	for i > 0 && !isRuneStart(n[i]) {
		i--
	}
	for j < len(n) && !isRuneStart(n[j]) {
		j++
	}
	return n[i:j]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func TestProblems(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"clean", "a retry budget caps retries", 0},
		{"named", "as " + Title + ", section 3.3, says; the article also", 0},
		{"title wrapped in a Go comment", "// as «Устойчивость: circuit breaker, retry,\n// bulkhead, backpressure, деградация», section 5. The article", 0},
		{"title wrapped in TOML", "# as «Устойчивость: circuit breaker,\n#   retry, bulkhead, backpressure, деградация». The article", 0},
		{"bare article", "the article's numbers", 1},
		{"article's bounds in a table", "| 20 | article `limit=20` |", 1},
		{"unnamed design doc", "the " + "brief says so", 1},
		{"unnamed across a comment line", "// as in the\n// " + "brief", 1},
		{"possessive", "brief" + "'s section 6", 1},
		{"upper case file name", "see " + "BRI" + "EF.md", 1},
		{"unnamed source, title elsewhere", Title + " ... the source " + "article's rule", 1},
		{"source, then text", "the source " + "text warns", 1},
		{"two problems", "the source " + "article's rule", 2},
		{"in brief is fine", "## Go API in brief", 0},
		{"briefly is fine", "briefly, the pool floods", 0},
	}
	for _, tt := range tests {
		if got := problems(tt.text); len(got) != tt.want {
			t.Errorf("%s: %d problems %q, want %d", tt.name, len(got), got, tt.want)
		}
	}
}

// TestSourcesAreCited walks the module and fails on every file that refers
// to a source without naming it, or mentions the article without its title.
func TestSourcesAreCited(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skippedDirs[rel] || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !checkedExt[filepath.Ext(path)] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, p := range problems(string(b)) {
			t.Errorf("%s: %s", rel, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The module has hundreds of such files; a handful means the walk
	// started in the wrong place.
	if checked < 100 {
		t.Fatalf("checked %d files under %s, want at least 100", checked, root)
	}
}

// moduleRoot returns the nearest directory at or above the working
// directory that holds go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
