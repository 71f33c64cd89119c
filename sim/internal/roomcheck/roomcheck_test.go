package roomcheck

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// recorder collects the errors Check reports instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

// TestCheckReportsLongFunctionsAndStaleExemptions runs Check on a package
// of two functions, 5 and 3 lines long, with a limit of 4 lines.
func TestCheckReportsLongFunctionsAndStaleExemptions(t *testing.T) {
	t.Chdir(t.TempDir())
	src := "package p\n\nfunc long() {\n\t_ = 1\n\t_ = 2\n\t_ = 3\n}\n\nfunc short() {\n\t_ = 1\n}\n"
	if err := os.WriteFile("p.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		limits Limits
		want   []string // substrings of the errors, in order
	}{
		{"long reported", Limits{Func: 4}, []string{"long is 5 lines, more than 4"}},
		{"exempt", Limits{Func: 4, Exempt: map[string]string{"long": "why"}}, nil},
		{"exempt by file", Limits{Func: 4, Exempt: map[string]string{"long@p.go": "why"}}, nil},
		{"stale exemption", Limits{Func: 4, Exempt: map[string]string{"long": "why", "short": "why"}}, []string{`exemption "short"`}},
		{"file too long", Limits{File: 10}, []string{"p.go: 11 lines, more than 10"}},
	} {
		r := &recorder{TB: t}
		Check(r, tt.limits)
		if len(r.errs) != len(tt.want) {
			t.Errorf("%s: errors %q, want %d", tt.name, r.errs, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(r.errs[i], w) {
				t.Errorf("%s: error %q, want it to contain %q", tt.name, r.errs[i], w)
			}
		}
	}
}
