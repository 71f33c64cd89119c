package experiment

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// variants reads the [[variant]] blocks. Each names a copy of the base
// document with overrides applied by path, read again by the same strict
// reader, so a variant can change any setting and gets the same checks.
//
// An override path walks the document: a table key, or, in an array of
// tables ([[client]], [[service]], [[service.step]], ...), an element
// chosen by its name or its 0-based index. For example
// "client.users.retry.attempts", "service.api.codel",
// "service.checkout.operation.product.step.1.bulkhead",
// "experiment.propagate_deadlines", "fault.0.multiply".
//
// The overrides of every variant with a valid name are recorded, so that
// references to it ([[expect]], [sweep].variants) resolve; each variant's
// whole document is read only when the base is valid (baseOK), since
// otherwise it repeats the base's problems.
func (r *reader) variants(root *table, base map[string]any, parent *Experiment, baseOK bool) []Variant {
	var out []Variant
	seen := map[string]bool{"base": true}
	tables := root.tables("variant")
	if len(tables) > MaxVariants {
		r.errorf(join("variant", fmt.Sprint(MaxVariants)), "at most %d variants, got %d", MaxVariants, len(tables))
		return nil
	}
	for _, vt := range tables {
		name, ok := r.name(vt, "variant", seen)
		desc, _ := vt.str("description", false)
		doc := deepCopy(base).(map[string]any)
		ovs, ook := r.variantOverrides(vt, doc)
		ok = ook && ok
		added := r.variantActions(vt, doc)
		vt.done("name", "description", "set", "unset", "action")
		if name != "" {
			if parent.overrides == nil {
				parent.overrides = map[string][]override{}
			}
			parent.overrides[name] = ovs
		}
		if ok {
			ok = r.noOpOverrides(vt, name, ovs, base, doc)
		}
		if !ok || !baseOK {
			continue
		}
		// Read the variant's document as a whole experiment; report its
		// problems as the variant's, at the variant's block.
		sub := &reader{file: r.file, pos: r.pos}
		x := sub.experiment(sub.root(doc))
		for _, err := range sub.errs {
			at := culprit(vt, ovs, doc, err.Key)
			if k, own := added.key(vt, err.Key); own {
				at = k
			}
			r.errs = append(r.errs, &Error{File: r.file, Pos: r.pos.lookup(at), Key: displayPath(at),
				Msg: fmt.Sprintf("variant %q: %s: %s", name, err.Key, err.Msg)})
		}
		if len(sub.errs) > 0 {
			continue
		}
		if err := x.Model.Validate(); err != nil {
			r.errorf(vt.path, "variant %q: %v", name, err)
			continue
		}
		out = append(out, Variant{Name: name, Description: desc, Model: x.Model})
	}
	return out
}

// variantOverrides reads a variant's set and unset keys and applies them
// to doc, in order: set (by sorted key), then unset.
func (r *reader) variantOverrides(vt *table, doc map[string]any) ([]override, bool) {
	ok := true
	var ovs []override
	if st, has := vt.sub("set", false); has {
		keys := make([]string, 0, len(st.m))
		for k := range st.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, _ := st.get(k)
			ovs = append(ovs, override{path: k, value: v})
			if err := setPath(doc, k, deepCopy(v)); err != nil {
				r.errorf(st.key(k), "override %q: %v", k, err)
				ok = false
			}
		}
	} else if vt.has("set") {
		ok = false
	}
	if paths, has := vt.strings("unset"); has {
		for _, p := range paths {
			ovs = append(ovs, override{path: p, unset: true})
			if err := unsetPath(doc, p); err != nil {
				r.errorf(vt.key("unset"), "unset %q: %v", p, err)
				ok = false
			}
		}
	} else if vt.has("unset") {
		ok = false
	}
	return ovs, ok
}

// addedActions are the [[variant.action]] blocks a variant appends to
// the document's [[action]] list, from index first on.
type addedActions struct{ first, n int }

// variantActions appends the variant's [[variant.action]] blocks to
// doc's actions: a variant adds timed actions to the base's (set or unset
// "action" to replace or remove those).
func (r *reader) variantActions(vt *table, doc map[string]any) addedActions {
	v, ok := vt.get("action")
	if !ok {
		return addedActions{}
	}
	var mine []map[string]any
	switch a := v.(type) {
	case []map[string]any:
		mine = a
	case []any:
		for _, e := range a {
			if m, ok := e.(map[string]any); ok {
				mine = append(mine, m)
			}
		}
	}
	if len(mine) == 0 {
		r.errorf(vt.key("action"), "expected [[variant.action]] blocks, got %s", typeName(v))
		return addedActions{}
	}
	var all []map[string]any
	switch a := doc["action"].(type) {
	case []map[string]any:
		all = a
	case []any:
		for _, e := range a {
			if m, ok := e.(map[string]any); ok {
				all = append(all, m)
			}
		}
	}
	first := len(all)
	for _, m := range mine {
		all = append(all, deepCopy(m).(map[string]any))
	}
	doc["action"] = all
	return addedActions{first: first, n: len(mine)}
}

// key returns the path, in the variant block vt, of the key a problem at
// key ("action[3].at", in the variant's document) is in, if it is in one
// of the variant's own actions.
func (a addedActions) key(vt *table, key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "action[")
	if !ok || a.n == 0 {
		return "", false
	}
	num, tail, ok := strings.Cut(rest, "]")
	i, err := strconv.Atoi(num)
	if !ok || err != nil || i < a.first || i >= a.first+a.n {
		return "", false
	}
	return join(vt.key("action"), strconv.Itoa(i-a.first)) + tail, true
}

// resolve walks path (without its last segment) from doc and returns the
// table that holds the last key.
func resolve(doc map[string]any, path string) (map[string]any, string, error) {
	if path == "" {
		return nil, "", fmt.Errorf("empty path")
	}
	segs := strings.Split(path, ".")
	cur := doc
	for i := 0; i < len(segs)-1; i++ {
		seg := segs[i]
		v, ok := cur[seg]
		if !ok {
			if i == 0 {
				return nil, "", fmt.Errorf("no %q at the top level", seg)
			}
			return nil, "", fmt.Errorf("no %q at %q", seg, strings.Join(segs[:i], "."))
		}
		switch x := v.(type) {
		case map[string]any:
			cur = x
		case []map[string]any, []any:
			if i+1 >= len(segs)-1 && i+1 == len(segs)-1 {
				return nil, "", fmt.Errorf("%q is a list: name an element, e.g. %s.NAME.key", seg, strings.Join(segs[:i+1], "."))
			}
			el, err := element(x, segs[i+1])
			if err != nil {
				return nil, "", fmt.Errorf("%s: %v", strings.Join(segs[:i+1], "."), err)
			}
			cur = el
			i++
		default:
			return nil, "", fmt.Errorf("%q is not a table", strings.Join(segs[:i+1], "."))
		}
	}
	return cur, segs[len(segs)-1], nil
}

// element picks a table of an array by name or index.
func element(arr any, sel string) (map[string]any, error) {
	var tables []map[string]any
	switch a := arr.(type) {
	case []map[string]any:
		tables = a
	case []any:
		for _, e := range a {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("not a list of tables")
			}
			tables = append(tables, m)
		}
	}
	for _, t := range tables {
		if n, ok := t["name"].(string); ok && n == sel {
			return t, nil
		}
		if n, ok := t["call"].(string); ok && n == sel {
			return t, nil
		}
	}
	if i, err := strconv.Atoi(sel); err == nil && i >= 0 && i < len(tables) {
		return tables[i], nil
	}
	return nil, fmt.Errorf("no element named %q (and it is not an index below %d)", sel, len(tables))
}

func setPath(doc map[string]any, path string, v any) error {
	t, k, err := resolve(doc, path)
	if err != nil {
		return err
	}
	t[k] = v
	return nil
}

func unsetPath(doc map[string]any, path string) error {
	t, k, err := resolve(doc, path)
	if err != nil {
		return err
	}
	if _, ok := t[k]; !ok {
		return fmt.Errorf("no %q to remove", path)
	}
	delete(t, k)
	return nil
}

// deepCopy copies a decoded TOML value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []map[string]any:
		a := make([]map[string]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e).(map[string]any)
		}
		return a
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	case time.Time:
		return x
	}
	return v
}

// override is one change a variant makes: a set or an unset.
type override struct {
	path  string
	value any
	unset bool
}

func (o override) apply(doc map[string]any) error {
	if o.unset {
		return unsetPath(doc, o.path)
	}
	return setPath(doc, o.path, deepCopy(o.value))
}

// parseDuration is time.ParseDuration, for sweep values.
func parseDuration(s string) (time.Duration, error) { return time.ParseDuration(s) }
