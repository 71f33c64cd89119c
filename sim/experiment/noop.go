package experiment

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// runSettings are the [experiment] keys that belong to the whole
// experiment, not to a model: a variant or a sweep axis that changed them
// would change nothing, so it is an error, with the reason.
var runSettings = []struct{ key, why string }{
	{"seed", "every variant and every sweep cell runs with the base's seeds (common random numbers), so that differences come from the settings, not the dice"},
	{"replications", "every variant and every sweep cell runs the base's number of replications"},
	{"compare_series", "it applies to the whole comparison"},
	{"name", "the experiment's name names its output directory once"},
	{"description", "it describes the whole experiment"},
}

// runSettingWhy returns why path, a variant's or an axis's override
// path, would be ignored, or "".
func runSettingWhy(path string) string {
	for _, s := range runSettings {
		if path == "experiment."+s.key {
			return fmt.Sprintf("experiment.%s cannot differ between variants or sweep cells: %s", s.key, s.why)
		}
	}
	return ""
}

// noOpOverrides reports a variant's overrides that would change a run
// setting (directly, or by replacing or removing the whole [experiment]
// table), at the override's key. doc is the base with the overrides
// applied.
func (r *reader) noOpOverrides(vt *table, name string, ovs []override, base, doc map[string]any) bool {
	before, _ := base["experiment"].(map[string]any)
	after, _ := doc["experiment"].(map[string]any)
	ok := true
	for _, s := range runSettings {
		if reflect.DeepEqual(before[s.key], after[s.key]) {
			continue
		}
		at := vt.path
		for _, o := range ovs {
			if o.path == "experiment" || o.path == "experiment."+s.key {
				at = overrideKey(vt, o)
				break
			}
		}
		r.errorf(at, "variant %q: %s", name, runSettingWhy("experiment."+s.key))
		ok = false
	}
	return ok
}

// overrideKey is the path of the key that wrote o in the variant block vt.
func overrideKey(vt *table, o override) string {
	if o.unset {
		return vt.key("unset")
	}
	return join(vt.key("set"), o.path)
}

// formatValue writes a TOML value as it would appear in a file, for
// messages (not Go's map syntax).
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case map[string]any:
		keys := sortedKeys(x)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " = " + formatValue(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []map[string]any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// culprit returns the path of the variant key to blame for a problem at
// key (in display form, "client[0].retry.attempts") of the variant's
// document: the set or unset whose path leads to key or lies within it,
// else the variant block itself.
func culprit(vt *table, ovs []override, doc map[string]any, key string) string {
	for _, o := range ovs {
		p := displayPath(indexPath(doc, o.path))
		if key == p || strings.HasPrefix(key, p+".") || strings.HasPrefix(key, p+"[") ||
			strings.HasPrefix(p, key+".") || strings.HasPrefix(p, key+"[") {
			return overrideKey(vt, o)
		}
	}
	return vt.path
}

// indexPath rewrites an override path with array elements chosen by index
// ("client.users.retry" becomes "client.0.retry"), as the reader names
// keys; a segment it cannot follow ends the rewrite.
func indexPath(doc map[string]any, path string) string {
	segs := strings.Split(path, ".")
	var cur any = doc
	for i := 0; i < len(segs); i++ {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[segs[i]]
		case []map[string]any, []any:
			idx, ok := elementIndex(x, segs[i])
			if !ok {
				return strings.Join(segs, ".")
			}
			segs[i] = fmt.Sprint(idx)
			cur, _ = elementAt(x, idx)
		default:
			return strings.Join(segs, ".")
		}
	}
	return strings.Join(segs, ".")
}

// elementIndex finds an array's table by name, call or index, as element
// does.
func elementIndex(arr any, sel string) (int, bool) {
	for i := 0; ; i++ {
		t, ok := elementAt(arr, i)
		if !ok {
			break
		}
		if n, _ := t["name"].(string); n == sel {
			return i, true
		}
		if n, _ := t["call"].(string); n == sel {
			return i, true
		}
	}
	if i, err := strconv.Atoi(sel); err == nil {
		if _, ok := elementAt(arr, i); ok {
			return i, true
		}
	}
	return 0, false
}

func elementAt(arr any, i int) (map[string]any, bool) {
	switch a := arr.(type) {
	case []map[string]any:
		if i >= 0 && i < len(a) {
			return a[i], true
		}
	case []any:
		if i >= 0 && i < len(a) {
			m, ok := a[i].(map[string]any)
			return m, ok
		}
	}
	return nil, false
}
