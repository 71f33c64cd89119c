package telemetry

import (
	"sort"
	"strconv"
)

// Label is one label of a series: its name and value.
type Label struct {
	Name, Value string
}

// Point is one sample of a series: T its time in milliseconds since the
// Unix epoch (Prometheus' own unit), V its value.
type Point struct {
	T int64
	V float64
}

// Origin says where a series or span was read: the file (as given on the
// command line, or a URL) and the 1-based line of its first sample (0 when
// the format has no lines, such as a JSON answer).
type Origin struct {
	File string
	Line int
}

// String formats the origin as file:line, or file alone.
func (o Origin) String() string {
	if o.Line > 0 {
		return o.File + ":" + strconv.Itoa(o.Line)
	}
	return o.File
}

// Series is one metric time series: its sample name (with any _total,
// _bucket, _sum or _count suffix as written), its labels sorted by name
// (without __name__), and its points in increasing time order with no two
// at the same time.
type Series struct {
	Name   string
	Labels []Label
	Points []Point
	Origin Origin
}

// Label returns the value of the label called name, or "".
func (s *Series) Label(name string) string {
	for _, l := range s.Labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// ID returns the series' identity in PromQL's notation,
// name{a="x",b="y"}, with values quoted as Go strings (which escapes
// quotes, backslashes and control characters).
func (s *Series) ID() string { return string(AppendID(nil, s.Name, s.Labels)) }

// AppendID appends the ID of the series name{labels} (as Series.ID
// writes it) to dst: readers key their series by it without a string
// per sample.
func AppendID(dst []byte, name string, labels []Label) []byte {
	dst = append(dst, name...)
	if len(labels) > 0 {
		dst = append(dst, '{')
		for i, l := range labels {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, l.Name...)
			dst = append(dst, '=')
			dst = strconv.AppendQuote(dst, l.Value)
		}
		dst = append(dst, '}')
	}
	return dst
}

// Family is a metric family's declared type and unit, from a # TYPE and
// # UNIT line ("counter", "gauge", "histogram", "summary", "gaugehistogram",
// "info", "stateset", "untyped" or "unknown").
type Family struct {
	Name, Type, Unit string
}

// Set is a collection of series, sorted by ID, with the families declared
// for them (sorted by name; empty for formats without metadata).
type Set struct {
	Series   []Series
	Families []Family
}

// Sort puts the series in ID order and the families in name order, the
// order every reader returns them in.
func (s *Set) Sort() {
	sort.SliceStable(s.Series, func(i, j int) bool { return s.Series[i].ID() < s.Series[j].ID() })
	sort.SliceStable(s.Families, func(i, j int) bool { return s.Families[i].Name < s.Families[j].Name })
}

// Merge returns the union of sets: series with the same ID have their
// points merged in time order (a point at a time already present is
// dropped: the first set read wins), families are deduplicated by name.
// The result is sorted.
func Merge(sets ...Set) Set {
	byID := make(map[string]int)
	var out Set
	fam := make(map[string]bool)
	for _, set := range sets {
		for _, s := range set.Series {
			id := s.ID()
			i, ok := byID[id]
			if !ok {
				byID[id] = len(out.Series)
				c := s
				c.Points = append([]Point(nil), s.Points...)
				out.Series = append(out.Series, c)
				continue
			}
			out.Series[i].Points = mergePoints(out.Series[i].Points, s.Points)
		}
		for _, f := range set.Families {
			if !fam[f.Name] {
				fam[f.Name] = true
				out.Families = append(out.Families, f)
			}
		}
	}
	out.Sort()
	return out
}

// mergePoints merges two time-ordered point lists; at equal times a's
// point is kept.
func mergePoints(a, b []Point) []Point {
	out := make([]Point, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].T < b[j].T):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].T < a[i].T:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
