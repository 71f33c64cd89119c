package preset

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// MaxMappingBytes bounds a mapping file.
const MaxMappingBytes = 1 << 20

// mappingFile is a mapping file's TOML (see the package doc).
type mappingFile struct {
	Doc     string          `toml:"doc"`
	Service *mappingService `toml:"service"`
	Client  *mappingClient  `toml:"client"`
	Edge    *mappingEdge    `toml:"edge"`
}

type mappingService struct {
	NameLabel   string `toml:"name_label"`
	Requests    string `toml:"requests"`
	Handled     string `toml:"handled"`
	Errors      string `toml:"errors"`
	Latency     string `toml:"latency"`
	LatencyUnit string `toml:"latency_unit"`
	Busy        string `toml:"busy"`
	Workers     string `toml:"workers"`
}

type mappingClient struct {
	NameLabel   string `toml:"name_label"`
	TargetLabel string `toml:"target_label"`
	Requests    string `toml:"requests"`
	Good        string `toml:"good"`
	Latency     string `toml:"latency"`
	LatencyUnit string `toml:"latency_unit"`
}

type mappingEdge struct {
	CallerLabel    string `toml:"caller_label"`
	CalleeLabel    string `toml:"callee_label"`
	OperationLabel string `toml:"operation_label"`
	Calls          string `toml:"calls"`
	Retries        string `toml:"retries"`
	Latency        string `toml:"latency"`
	LatencyUnit    string `toml:"latency_unit"`
}

// mappingError is an error at a line of a mapping file.
func mappingError(name string, line int, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if line > 0 {
		return fmt.Errorf("mapping %s:%d: %s", name, line, msg)
	}
	return fmt.Errorf("mapping %s: %s", name, msg)
}

// FromMapping builds a preset called name from a TOML mapping file (see
// the package doc). Syntax errors, unknown keys, malformed selectors and
// bad regular expressions are errors naming the line.
func FromMapping(name string, data []byte) (Preset, error) {
	if len(data) > MaxMappingBytes {
		return Preset{}, mappingError(name, 0, "%d bytes, more than the %d allowed", len(data), MaxMappingBytes)
	}
	var f mappingFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Preset{}, mappingError(name, pe.Position.Line, "TOML: %s", pe.Message)
		}
		return Preset{}, mappingError(name, 0, "TOML: %v", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return Preset{}, mappingError(name, keyLine(data, k), "unknown key %s", k)
	}
	c := mappingCompiler{name: name, data: data}
	read := c.compile(&f)
	if c.err != nil {
		return Preset{}, c.err
	}
	if len(c.looks) == 0 {
		return Preset{}, mappingError(name, 0, "names no series: give [service], [client] or [edge] a selector")
	}
	doc := f.Doc
	if doc == "" {
		doc = "A mapping file's own naming."
	}
	return Preset{Name: name, Doc: doc, looks: c.looks, read: read}, nil
}

// mappingCompiler turns a mapping file's strings into selectors, keeping
// the first error with its line.
type mappingCompiler struct {
	name  string
	data  []byte
	looks []selector
	err   error
}

// sel parses the selector at table.key, "" giving ok false.
func (c *mappingCompiler) sel(table, k, text string) (selector, bool) {
	if text == "" || c.err != nil {
		return selector{}, false
	}
	s, err := parseSelector(text)
	if err != nil {
		c.err = mappingError(c.name, keyLine(c.data, toml.Key{table, k}), "%s.%s: %v", table, k, err)
		return selector{}, false
	}
	c.looks = append(c.looks, s)
	return s, true
}

// unit reads a latency_unit.
func (c *mappingCompiler) unit(table, text string) unit {
	switch text {
	case "":
		return unitAuto
	case "seconds", "s":
		return unitSeconds
	case "milliseconds", "ms":
		return unitMilliseconds
	}
	if c.err == nil {
		c.err = mappingError(c.name, keyLine(c.data, toml.Key{table, "latency_unit"}),
			"%s.latency_unit: %q is neither seconds nor milliseconds", table, text)
	}
	return unitAuto
}

// label checks a label name at table.key.
func (c *mappingCompiler) label(table, k, v, def string) string {
	if v == "" {
		v = def
	}
	if c.err == nil && !labelNameRE.MatchString(v) {
		c.err = mappingError(c.name, keyLine(c.data, toml.Key{table, k}), "%s.%s: %q is not a label name", table, k, v)
	}
	return v
}

// step is one compiled role: what it reads into the builder.
type step func(b *builder)

func (c *mappingCompiler) compile(f *mappingFile) func(*builder) {
	var steps []step
	if s := f.Service; s != nil {
		svc := one(byLabels(c.label("service", "name_label", s.NameLabel, "service")))
		u := c.unit("service", s.LatencyUnit)
		counter := func(k, text string, field func(*observe.Service) **observe.Counter) {
			if sel, ok := c.sel("service", k, text); ok {
				steps = append(steps, func(b *builder) {
					b.counters(sel, svc, func(k key, v *observe.Counter) { *field(b.service(k.a)) = v })
				})
			}
		}
		gauge := func(k, text string, field func(*observe.Service) **observe.Gauge) {
			if sel, ok := c.sel("service", k, text); ok {
				steps = append(steps, func(b *builder) {
					b.gauges(sel, svc, func(k key, v *observe.Gauge) { *field(b.service(k.a)) = v })
				})
			}
		}
		counter("requests", s.Requests, func(s *observe.Service) **observe.Counter { return &s.Requests })
		counter("handled", s.Handled, func(s *observe.Service) **observe.Counter { return &s.Handled })
		counter("errors", s.Errors, func(s *observe.Service) **observe.Counter { return &s.Errors })
		gauge("busy", s.Busy, func(s *observe.Service) **observe.Gauge { return &s.Busy })
		gauge("workers", s.Workers, func(s *observe.Service) **observe.Gauge { return &s.Workers })
		if sel, ok := c.sel("service", "latency", s.Latency); ok {
			steps = append(steps, func(b *builder) {
				b.histograms(sel, svc, u, func(k key, h *observe.Histogram) { b.service(k.a).Latency = h })
			})
		}
	}
	if cl := f.Client; cl != nil {
		name := one(byLabels(c.label("client", "name_label", cl.NameLabel, "client")))
		target := ""
		if cl.TargetLabel != "" {
			target = c.label("client", "target_label", cl.TargetLabel, "")
		}
		u := c.unit("client", cl.LatencyUnit)
		if sel, ok := c.sel("client", "requests", cl.Requests); ok {
			steps = append(steps, func(b *builder) {
				b.counters(sel, name, func(k key, v *observe.Counter) { b.client(k.a).Requests = v })
				if target != "" {
					b.quietly(func() { setTargets(b, sel, name, target) })
				}
			})
		}
		if sel, ok := c.sel("client", "good", cl.Good); ok {
			steps = append(steps, func(b *builder) {
				b.counters(sel, name, func(k key, v *observe.Counter) { b.client(k.a).Good = v })
			})
		}
		if sel, ok := c.sel("client", "latency", cl.Latency); ok {
			steps = append(steps, func(b *builder) {
				b.histograms(sel, name, u, func(k key, h *observe.Histogram) { b.client(k.a).Latency = h })
			})
		}
	}
	if e := f.Edge; e != nil {
		if c.err == nil && (e.CallerLabel == "" || e.CalleeLabel == "") {
			c.err = mappingError(c.name, keyLine(c.data, toml.Key{"edge"}), "[edge] needs caller_label and callee_label")
		}
		caller := c.label("edge", "caller_label", e.CallerLabel, "caller")
		calleeL := c.label("edge", "callee_label", e.CalleeLabel, "callee")
		op := ""
		if e.OperationLabel != "" {
			op = c.label("edge", "operation_label", e.OperationLabel, "")
		}
		kf := func(s *telemetry.Series) (key, bool) {
			k := key{a: s.Label(caller), b: s.Label(calleeL)}
			if op != "" {
				k.c = s.Label(op)
			}
			return k, k.a != "" && k.b != ""
		}
		u := c.unit("edge", e.LatencyUnit)
		if sel, ok := c.sel("edge", "calls", e.Calls); ok {
			steps = append(steps, func(b *builder) {
				b.counters(sel, kf, func(k key, v *observe.Counter) { b.edge(k).Calls = v })
			})
		}
		if sel, ok := c.sel("edge", "retries", e.Retries); ok {
			steps = append(steps, func(b *builder) {
				b.counters(sel, kf, func(k key, v *observe.Counter) { b.edge(k).Retries = v })
			})
		}
		if sel, ok := c.sel("edge", "latency", e.Latency); ok {
			steps = append(steps, func(b *builder) {
				b.histograms(sel, kf, u, func(k key, h *observe.Histogram) { b.edge(k).Latency = h })
			})
		}
	}
	return func(b *builder) {
		for _, s := range steps {
			s(b)
		}
	}
}

// setTargets gives each client the value of its requests' target label,
// when it has exactly one.
func setTargets(b *builder, sel selector, name keyFunc, target string) {
	pair := func(s *telemetry.Series) (key, bool) {
		k, ok := name(s)
		k.b = s.Label(target)
		return k, ok && k.b != ""
	}
	gs := b.groups(sel, pair)
	for i, g := range gs {
		single := (i == 0 || gs[i-1].key.a != g.key.a) && (i+1 == len(gs) || gs[i+1].key.a != g.key.a)
		if single {
			b.client(g.key.a).Target = g.key.b
		} else if i == 0 || gs[i-1].key.a != g.key.a {
			b.notef("client %s has several %s values; its target is left empty", g.key.a, target)
		}
	}
}

// keyLine finds the 1-based line of a key in a TOML text: the line
// defining its last part inside its table (or the table header for a
// table's own key); 0 if not found. It reads headers and bare or quoted
// keys, enough for a mapping file's flat tables.
func keyLine(data []byte, k toml.Key) int {
	if len(k) == 0 {
		return 0
	}
	table := strings.Join(k[:len(k)-1], ".")
	last := k[len(k)-1]
	current := ""
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			h := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], " \t[]"))
			current = h
			if h == strings.Join(k, ".") {
				return i + 1
			}
			continue
		}
		if current != table {
			continue
		}
		lhs, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		lhs = strings.TrimSpace(lhs)
		if u, err := strconv.Unquote(lhs); err == nil {
			lhs = u
		} else if len(lhs) >= 2 && lhs[0] == '\'' && lhs[len(lhs)-1] == '\'' {
			lhs = lhs[1 : len(lhs)-1]
		}
		if lhs == last {
			return i + 1
		}
	}
	return 0
}
