package promql

import (
	"slices"
	"strconv"
	"strings"
)

// MetricName is the label that holds a series' metric name.
const MetricName = "__name__"

// Label is one label pair.
type Label struct {
	Name, Value string
}

// Labels is a label set sorted by name, names unique.
type Labels []Label

// NewLabels returns the pairs (name, value, name, value, ...) as a sorted
// label set; empty values are dropped, as in Prometheus.
func NewLabels(pairs ...string) Labels {
	var ls Labels
	for i := 0; i+1 < len(pairs); i += 2 {
		ls = append(ls, Label{pairs[i], pairs[i+1]})
	}
	return ls.normalize()
}

// normalize sorts ls by name, keeps the last of duplicate names and drops
// empty values.
func (ls Labels) normalize() Labels {
	slices.SortStableFunc(ls, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	out := ls[:0]
	for i, l := range ls {
		if i+1 < len(ls) && ls[i+1].Name == l.Name {
			continue
		}
		if l.Value != "" {
			out = append(out, l)
		}
	}
	return out
}

// Get returns the value of the label name, "" if absent.
func (ls Labels) Get(name string) string {
	for _, l := range ls {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// String renders ls as {a="x", b="y"}, as Prometheus prints label sets.
func (ls Labels) String() string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.Name + "=" + strconv.Quote(l.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// key is a string identifying ls (names and values cannot hold 0xff in
// valid UTF-8).
func (ls Labels) key() string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Name)
		b.WriteByte(0xfe)
		b.WriteString(l.Value)
		b.WriteByte(0xff)
	}
	return b.String()
}

// Compare orders label sets as Prometheus does (labels.Compare).
func Compare(a, b Labels) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i].Name, b[i].Name); c != 0 {
			return c
		}
		if c := strings.Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// without returns ls less the labels named in names.
func (ls Labels) without(names ...string) Labels {
	out := make(Labels, 0, len(ls))
	for _, l := range ls {
		if !slices.Contains(names, l.Name) {
			out = append(out, l)
		}
	}
	return out
}

// only returns the labels of ls named in names.
func (ls Labels) only(names ...string) Labels {
	out := make(Labels, 0, len(names))
	for _, l := range ls {
		if slices.Contains(names, l.Name) {
			out = append(out, l)
		}
	}
	return out
}

// with returns ls with the label name set to value (removed if empty).
func (ls Labels) with(name, value string) Labels {
	out := append(ls.without(name), Label{name, value})
	return out.normalize()
}

// dropName returns ls without __name__.
func (ls Labels) dropName() Labels {
	if len(ls) == 0 || ls[0].Name != MetricName && ls.Get(MetricName) == "" {
		return ls
	}
	return ls.without(MetricName)
}

// validLabelName says whether s is a valid label name.
func validLabelName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// validMetricName says whether s is a valid metric name.
func validMetricName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
