package promql

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxRulesSize bounds a rules file (4 MiB), as ressim alerts does.
const MaxRulesSize = 4 << 20

// RuleFile is a Prometheus rules file.
type RuleFile struct {
	Groups []Group
}

// Group is a rule group: its rules are evaluated in order, each seeing
// what the ones before it recorded at the same evaluation.
type Group struct {
	Name string
	// Interval is the group's own evaluation interval (0: not set). It
	// is read and checked but, as in promtool test rules, every group is
	// evaluated at every evaluation of Options.Interval.
	Interval time.Duration
	Rules    []Rule
}

// Rule is a recording rule (Record set) or an alerting rule (Alert set).
type Rule struct {
	Record, Alert string
	// Expr is the expression's text, Parsed its parse.
	Expr   string
	Parsed Expr
	// For is how long an alert is pending before it fires;
	// KeepFiringFor how long it keeps firing once its expression is
	// empty.
	For, KeepFiringFor time.Duration
	// Labels are added to the results (label templates are refused);
	// Annotations are kept as written (templates unexpanded).
	Labels, Annotations Labels
	// Line is the rule's line in the file.
	Line int
}

// Name is the rule's record or alert name.
func (r *Rule) Name() string {
	if r.Alert != "" {
		return r.Alert
	}
	return r.Record
}

type yamlFile struct {
	Groups []yamlGroup `yaml:"groups"`
}

type yamlGroup struct {
	Name     string     `yaml:"name"`
	Interval string     `yaml:"interval"`
	Limit    int        `yaml:"limit"`
	Rules    []yamlRule `yaml:"rules"`
}

type yamlRule struct {
	Record        yaml.Node         `yaml:"record"`
	Alert         yaml.Node         `yaml:"alert"`
	Expr          yaml.Node         `yaml:"expr"`
	For           string            `yaml:"for"`
	KeepFiringFor string            `yaml:"keep_firing_for"`
	Labels        map[string]string `yaml:"labels"`
	Annotations   map[string]string `yaml:"annotations"`
}

// ParseRules reads a Prometheus rules file (at most MaxRulesSize bytes),
// checks it as promtool check rules does, and parses every expression;
// an expression outside the subset is an error naming the rule.
func ParseRules(b []byte) (*RuleFile, error) {
	if len(b) > MaxRulesSize {
		return nil, fmt.Errorf("rules: file larger than %d bytes", MaxRulesSize)
	}
	var f yamlFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("rules: %v", err)
	}
	rf := &RuleFile{}
	seen := make(map[string]bool) // lookup only
	for gi, yg := range f.Groups {
		if yg.Name == "" {
			return nil, fmt.Errorf("rules: group %d: group name must not be empty", gi+1)
		}
		if seen[yg.Name] {
			return nil, fmt.Errorf("rules: group %q is repeated in the same file", yg.Name)
		}
		seen[yg.Name] = true
		g := Group{Name: yg.Name}
		if yg.Interval != "" {
			d, err := ParseDuration(yg.Interval)
			if err != nil {
				return nil, fmt.Errorf("rules: group %q: interval: %v", yg.Name, err)
			}
			g.Interval = d
		}
		if yg.Limit != 0 {
			return nil, fmt.Errorf("rules: group %q: limit is not supported; the page evaluates a subset, see docs/observability.md", yg.Name)
		}
		for ri, yr := range yg.Rules {
			r, err := parseRule(yr)
			if err != nil {
				line := yr.Expr.Line
				if line == 0 {
					line = max(yr.Alert.Line, yr.Record.Line)
				}
				return nil, fmt.Errorf("rules: line %d: group %q, rule %d: %w", line, yg.Name, ri+1, err)
			}
			g.Rules = append(g.Rules, r)
		}
		rf.Groups = append(rf.Groups, g)
	}
	return rf, nil
}

func scalarText(n yaml.Node, field string) (string, error) {
	switch n.Kind {
	case 0:
		return "", nil
	case yaml.ScalarNode:
		return n.Value, nil
	}
	return "", fmt.Errorf("%s must be a string", field)
}

func parseRule(yr yamlRule) (Rule, error) {
	var r Rule
	var err error
	if r.Record, err = scalarText(yr.Record, "record"); err != nil {
		return r, err
	}
	if r.Alert, err = scalarText(yr.Alert, "alert"); err != nil {
		return r, err
	}
	if r.Expr, err = scalarText(yr.Expr, "expr"); err != nil {
		return r, err
	}
	r.Line = max(yr.Record.Line, yr.Alert.Line)
	switch {
	case r.Record != "" && r.Alert != "":
		return r, fmt.Errorf("only one of 'record' and 'alert' must be set")
	case r.Record == "" && r.Alert == "":
		return r, fmt.Errorf("one of 'record' or 'alert' must be set")
	case strings.TrimSpace(r.Expr) == "":
		return r, fmt.Errorf("field 'expr' must be set in rule")
	}
	if r.Record != "" {
		if !validMetricName(r.Record) {
			return r, fmt.Errorf("invalid recording rule name: %s", r.Record)
		}
		if len(yr.Annotations) > 0 || yr.For != "" || yr.KeepFiringFor != "" {
			return r, fmt.Errorf("recording rule %s: invalid field 'annotations', 'for' or 'keep_firing_for'", r.Record)
		}
	} else if !utf8.ValidString(r.Alert) {
		return r, fmt.Errorf("invalid alert name: %q", r.Alert)
	}
	for name, v := range yr.Labels {
		if !validLabelName(name) || name == MetricName {
			return r, fmt.Errorf("%s: invalid label name: %s", r.Name(), name)
		}
		if r.Alert != "" && strings.Contains(v, "{{") {
			return r, fmt.Errorf("alert %s: label %s is a template: unsupported; the page evaluates a subset, see docs/observability.md", r.Alert, name)
		}
		r.Labels = append(r.Labels, Label{name, v})
	}
	r.Labels = r.Labels.normalize()
	for name, v := range yr.Annotations {
		if !validLabelName(name) {
			return r, fmt.Errorf("%s: invalid annotation name: %s", r.Name(), name)
		}
		r.Annotations = append(r.Annotations, Label{name, v})
	}
	r.Annotations = r.Annotations.normalize()
	if yr.For != "" {
		if r.For, err = ParseDuration(yr.For); err != nil {
			return r, fmt.Errorf("%s: for: %v", r.Name(), err)
		}
	}
	if yr.KeepFiringFor != "" {
		if r.KeepFiringFor, err = ParseDuration(yr.KeepFiringFor); err != nil {
			return r, fmt.Errorf("%s: keep_firing_for: %v", r.Name(), err)
		}
	}
	if r.Parsed, err = Parse(r.Expr); err != nil {
		return r, fmt.Errorf("%s: %w", r.Name(), err)
	}
	if r.Parsed.Type() == MatrixType {
		return r, fmt.Errorf("%s: the expression is a range vector; a rule needs an instant vector or a scalar", r.Name())
	}
	return r, nil
}
