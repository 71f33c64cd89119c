package experiment

import (
	"fmt"
	"reflect"
	"sort"
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
