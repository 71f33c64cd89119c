package preset

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/telemetry"
)

// parseText is a test-only reader of the Prometheus text format and
// OpenMetrics, enough for this package's test files: samples
// name{labels} value [timestamp], # TYPE and # UNIT lines. Timestamps
// are milliseconds in Prometheus text and seconds in OpenMetrics
// (openMetrics set); a sample without one is at defaultT.
func parseText(t testing.TB, file string, data []byte, openMetrics bool, defaultT int64) telemetry.Set {
	t.Helper()
	var set telemetry.Set
	byID := make(map[string]int)
	fams := make(map[string]*telemetry.Family)
	var famOrder []string
	fam := func(name string) *telemetry.Family {
		f, ok := fams[name]
		if !ok {
			f = &telemetry.Family{Name: name}
			fams[name] = f
			famOrder = append(famOrder, name)
		}
		return f
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			f := strings.Fields(line)
			if len(f) >= 4 && f[1] == "TYPE" {
				fam(f[2]).Type = f[3]
			}
			if len(f) >= 4 && f[1] == "UNIT" {
				fam(f[2]).Unit = f[3]
			}
			continue
		}
		s, v, ts, err := parseSample(line)
		if err != nil {
			t.Fatalf("%s:%d: %v", file, n, err)
		}
		T := defaultT
		if ts != "" {
			x, err := strconv.ParseFloat(ts, 64)
			if err != nil {
				t.Fatalf("%s:%d: timestamp %q: %v", file, n, ts, err)
			}
			if openMetrics {
				x *= 1000
			}
			T = int64(math.Round(x))
		}
		id := s.ID()
		i, ok := byID[id]
		if !ok {
			i = len(set.Series)
			byID[id] = i
			s.Origin = telemetry.Origin{File: file, Line: n}
			set.Series = append(set.Series, s)
		}
		set.Series[i].Points = append(set.Series[i].Points, telemetry.Point{T: T, V: v})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, name := range famOrder {
		set.Families = append(set.Families, *fams[name])
	}
	set.Sort()
	return set
}

// parseSample reads name{labels} value [timestamp].
func parseSample(line string) (telemetry.Series, float64, string, error) {
	var s telemetry.Series
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, 0, "", fmt.Errorf("no value in %q", line)
	}
	s.Name = line[:i]
	rest := line[i:]
	if rest[0] == '{' {
		rest = rest[1:]
		for {
			rest = strings.TrimLeft(rest, " ,")
			if strings.HasPrefix(rest, "}") {
				rest = rest[1:]
				break
			}
			eq := strings.IndexByte(rest, '=')
			if eq < 0 {
				return s, 0, "", fmt.Errorf("bad labels in %q", line)
			}
			name := strings.TrimSpace(rest[:eq])
			q, err := strconv.QuotedPrefix(rest[eq+1:])
			if err != nil {
				return s, 0, "", fmt.Errorf("label %s in %q: %v", name, line, err)
			}
			v, _ := strconv.Unquote(q)
			s.Labels = append(s.Labels, telemetry.Label{Name: name, Value: v})
			rest = rest[eq+1+len(q):]
		}
	}
	sort.Slice(s.Labels, func(i, j int) bool { return s.Labels[i].Name < s.Labels[j].Name })
	f := strings.Fields(rest)
	if len(f) == 0 {
		return s, 0, "", fmt.Errorf("no value in %q", line)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return s, 0, "", fmt.Errorf("value in %q: %v", line, err)
	}
	ts := ""
	if len(f) > 1 {
		ts = f[1]
	}
	return s, v, ts, nil
}

// readShared parses a file under /work/shared/telemetry/prom, skipping
// the test when it is absent.
func readShared(t *testing.T, name string) telemetry.Set {
	t.Helper()
	path := filepath.Join("..", "..", "..", "..", "shared", "telemetry", "prom", name)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("%s absent", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return parseText(t, path, data, false, 1767225600000)
}

// mk returns a series named name with label pairs kv and the points
// (time in seconds, value) given as pairs.
func mk(name string, kv ...string) func(tv ...float64) telemetry.Series {
	return func(tv ...float64) telemetry.Series {
		s := telemetry.Series{Name: name, Origin: telemetry.Origin{File: "test"}}
		for i := 0; i+1 < len(kv); i += 2 {
			s.Labels = append(s.Labels, telemetry.Label{Name: kv[i], Value: kv[i+1]})
		}
		sort.Slice(s.Labels, func(i, j int) bool { return s.Labels[i].Name < s.Labels[j].Name })
		for i := 0; i+1 < len(tv); i += 2 {
			s.Points = append(s.Points, telemetry.Point{T: int64(tv[i] * 1000), V: tv[i+1]})
		}
		return s
	}
}

// hist returns a histogram family's _bucket, _sum and _count series for
// labels kv at two scrapes (times 1 and 2 s): bounds les, cumulative
// counts c1 then c2 (one per bound, the last being +Inf), sums s1, s2.
func hist(base string, kv []string, les []string, c1, c2 []float64, s1, s2 float64) []telemetry.Series {
	var out []telemetry.Series
	for i, le := range les {
		out = append(out, mk(base+"_bucket", append(append([]string(nil), kv...), "le", le)...)(1, c1[i], 2, c2[i]))
	}
	out = append(out, mk(base+"_sum", kv...)(1, s1, 2, s2))
	out = append(out, mk(base+"_count", kv...)(1, c1[len(c1)-1], 2, c2[len(c2)-1]))
	return out
}

// setOf sorts series into a Set.
func setOf(series ...[]telemetry.Series) telemetry.Set {
	var s telemetry.Set
	for _, ss := range series {
		s.Series = append(s.Series, ss...)
	}
	s.Sort()
	return s
}

// one1 wraps single series for setOf.
func one1(s ...telemetry.Series) []telemetry.Series { return s }
