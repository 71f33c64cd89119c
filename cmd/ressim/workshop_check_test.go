package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A workshop claim, written in notebooks/workshop.md after the command
// whose outputs it is about, as an HTML comment:
//
//	<!-- check: summary.json headline.verdict == "locked_in" -->
//	<!-- check: compare.json locked_in.variant=base.probability == 1 -->
//	<!-- check: sweep.json cells.variant=base,x=1100.value <= 10 -->
//	<!-- check: timeseries.csv [variant=V] ENTITY METRIC FROM TO mean|min|max OP VALUE -->
//	<!-- check: events.csv KIND SUBJECT sequence FROM->TO ... -->
//	<!-- check: events.csv KIND SUBJECT to=STATE N at OP VALUE -->
//	<!-- check: exists overview.png -->
//
// JSON paths are dot-separated: a map key, an array index, or k=v[,k=v]
// which keeps every array element whose fields match (each must satisfy
// the claim, and at least one must exist). A time-series claim aggregates
// the metric over the intervals inside [FROM, TO] seconds (replication 0
// of the variant in a comparison's file). OP is ==, <, <=, >, >= or
// within (two bounds, inclusive); VALUE is a number or a quoted string.

// checkClaim evaluates one claim against the outputs in dir.
func checkClaim(dir, claim string) error {
	f := strings.Fields(claim)
	if len(f) == 2 && f[0] == "exists" {
		st, err := os.Stat(filepath.Join(dir, f[1]))
		if err != nil || st.Size() == 0 {
			return fmt.Errorf("%s missing or empty", f[1])
		}
		return nil
	}
	if len(f) < 4 {
		return fmt.Errorf("malformed claim")
	}
	if f[0] == "timeseries.csv" {
		return checkSeries(filepath.Join(dir, f[0]), f[1:])
	}
	if f[0] == "events.csv" {
		return checkEvents(filepath.Join(dir, f[0]), f[1:])
	}
	b, err := os.ReadFile(filepath.Join(dir, f[0]))
	if err != nil {
		return err
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %w", f[0], err)
	}
	vals, err := jsonSelect(doc, strings.Split(f[1], "."))
	if err != nil {
		return err
	}
	for _, v := range vals {
		if err := checkValue(v, f[2], f[3:]); err != nil {
			return err
		}
	}
	return nil
}

// jsonSelect walks path through v, fanning out at k=v filters.
func jsonSelect(v any, path []string) ([]any, error) {
	if len(path) == 0 {
		return []any{v}, nil
	}
	seg, rest := path[0], path[1:]
	switch x := v.(type) {
	case map[string]any:
		c, ok := x[seg]
		if !ok {
			return nil, fmt.Errorf("no key %q", seg)
		}
		return jsonSelect(c, rest)
	case []any:
		if i, err := strconv.Atoi(seg); err == nil {
			if i < 0 || i >= len(x) {
				return nil, fmt.Errorf("index %d out of range", i)
			}
			return jsonSelect(x[i], rest)
		}
		var out []any
		for _, e := range x {
			if m, ok := e.(map[string]any); ok && matches(m, seg) {
				sel, err := jsonSelect(m, rest)
				if err != nil {
					return nil, err
				}
				out = append(out, sel...)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no element matches %q", seg)
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot select %q in a %T", seg, v)
}

// matches reports whether every k=v of filter holds for m.
func matches(m map[string]any, filter string) bool {
	for _, kv := range strings.Split(filter, ",") {
		k, want, ok := strings.Cut(kv, "=")
		if !ok || fmt.Sprint(m[k]) != want {
			return false
		}
	}
	return true
}

// checkValue checks got OP args.
func checkValue(got any, op string, args []string) error {
	if s, ok := got.(string); ok {
		want, err := strconv.Unquote(args[0])
		if op != "==" || err != nil || s != want {
			return fmt.Errorf("got %q, want %s %s", s, op, strings.Join(args, " "))
		}
		return nil
	}
	g, ok := got.(float64)
	if !ok {
		return fmt.Errorf("got %v, not a number", got)
	}
	return compareNum(g, op, args)
}

func compareNum(g float64, op string, args []string) error {
	nums := make([]float64, len(args))
	for i, a := range args {
		n, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return fmt.Errorf("bad number %q", a)
		}
		nums[i] = n
	}
	var ok bool
	switch {
	case op == "within" && len(nums) == 2:
		ok = g >= nums[0] && g <= nums[1]
	case len(nums) != 1:
		return fmt.Errorf("%s takes one value", op)
	case op == "==":
		ok = g == nums[0]
	case op == "<":
		ok = g < nums[0]
	case op == "<=":
		ok = g <= nums[0]
	case op == ">":
		ok = g > nums[0]
	case op == ">=":
		ok = g >= nums[0]
	default:
		return fmt.Errorf("unknown operator %q", op)
	}
	if !ok {
		return fmt.Errorf("got %g, want %s %s", g, op, strings.Join(args, " "))
	}
	return nil
}
