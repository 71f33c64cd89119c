package promtext

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, name := range []string{"prometheus.prom", "tsdb-dump.txt"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"up 1\n",
		"# TYPE a counter\n# UNIT a s\na_total{x=\"1\"} 1 1.5 # {t=\"2\"} 3\na_created 1\n# EOF\n",
		"{__name__=\"up\", a=\"\\x00\"} 1 2\n",
		"m{a=\"\\\\\\\"\\n\",} NaN -5\nm{a=\"\\\\\\\"\\n\"} +Inf 3\n",
		"{\"x.y\"} 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := Parse("fuzz", data, Options{MaxSeries: 1000, MaxPoints: 10000})
		if err != nil {
			if set.Series != nil || set.Families != nil {
				t.Fatal("a failed parse returned series")
			}
			return
		}
		checkSet(t, set)
		for i := 1; i < len(set.Families); i++ {
			if set.Families[i-1].Name >= set.Families[i].Name {
				t.Fatalf("families %q then %q", set.Families[i-1].Name, set.Families[i].Name)
			}
		}
	})
}
