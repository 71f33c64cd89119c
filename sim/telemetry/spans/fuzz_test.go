package spans

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, and that what it accepts is
// sorted and well formed.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`[{"traceId":"1","id":"2","timestamp":"1e3","duration":1}]`))
	f.Add([]byte(`{"traceID":"1","spans":[{"spanID":"2"}],"processes":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, err := Parse("fuzz", data, Options{MaxSpans: 1000})
		if err != nil {
			return
		}
		for i, s := range got {
			if s.End < s.Start {
				t.Fatalf("span %d ends before it starts: %+v", i, s)
			}
			if s.TraceID == "" || s.SpanID == "" {
				t.Fatalf("span %d has no ID: %+v", i, s)
			}
			if i > 0 {
				a := got[i-1]
				if a.TraceID > s.TraceID || a.TraceID == s.TraceID && a.Start > s.Start {
					t.Fatalf("spans %d, %d out of order", i-1, i)
				}
			}
		}
	})
}
