package promapi

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParseQueryRange(f *testing.F) {
	for _, name := range []string{"query-range-rate.json", "query-vector.json"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"status":"error","errorType":"bad_data","error":"x"}`))
	f.Add([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"a"},"values":[[2,"NaN"],[1,"+Inf"]]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseQueryRange("fuzz", data)
		if err != nil {
			return
		}
		for i, s := range set.Series {
			if i > 0 && set.Series[i-1].ID() >= s.ID() {
				t.Fatalf("series %s before %s", set.Series[i-1].ID(), s.ID())
			}
			for j := 1; j < len(s.Points); j++ {
				if s.Points[j-1].T >= s.Points[j].T {
					t.Fatalf("series %s: time %d then %d", s.ID(), s.Points[j-1].T, s.Points[j].T)
				}
			}
		}
	})
}
