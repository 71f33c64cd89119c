package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// r4jReader reads a Spring Boot application.yml's resilience4j sections
// (resilience4j-spring-boot2/3: resilience4j.circuitbreaker, .retry,
// .bulkhead, .thread-pool-bulkhead, .timelimiter, .ratelimiter), each with
// configs (named bases) and instances.
type r4jReader struct {
	file  string
	sk    *skeleton
	warns []Diag
	errs  Errors
	calls map[string]int // instance name -> index in sk.calls
	// configs are every file's named configs, by section: an instance may
	// take its baseConfig from another file of the application (a
	// profile's application-prod.yml over application.yml). collectOnly
	// makes document gather them and do nothing else (Import's first
	// pass over the files).
	configs     map[string]map[string]r4jConfig
	collectOnly bool
}

// r4jConfig is a named config of a section and the file that has it.
type r4jConfig struct {
	field
	file string
}

func (g *r4jReader) warn(s src, format string, a ...any) {
	g.warns = append(g.warns, s.diag(format, a...))
}
func (g *r4jReader) fail(s src, format string, a ...any) {
	g.errs = append(g.errs, s.diag(format, a...))
}

// r4jSections are the section names ressim reads.
var r4jSections = map[string]bool{"circuitbreaker": true, "retry": true, "bulkhead": true,
	"thread-pool-bulkhead": true, "timelimiter": true, "ratelimiter": true}

func (g *r4jReader) document(root *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		g.fail(at(g.file, root, "(root)"), "an application.yml is a mapping")
		return
	}
	// The thread-pool bulkheads are read last, wherever they stand, so
	// that an instance with both kinds keeps its semaphore bulkhead.
	var pools []func()
	for _, f := range fields(root) {
		s := at(g.file, f.kpos, f.key)
		switch {
		case f.key == "resilience4j":
			for _, sf := range fields(f.value) {
				sf, ss := sf, at(g.file, sf.kpos, "resilience4j."+sf.key)
				if sf.key == "thread-pool-bulkhead" {
					pools = append(pools, func() { g.section(sf, ss) })
					continue
				}
				g.section(sf, ss)
			}
		case len(f.key) > 13 && f.key[:13] == "resilience4j.":
			sf := field{f.key[13:], f.kpos, f.value}
			if sf.key == "thread-pool-bulkhead" {
				pools = append(pools, func() { g.section(sf, s) })
				continue
			}
			g.section(sf, s)
		default:
			g.warn(s, "not a resilience4j section; ignored")
		}
	}
	for _, read := range pools {
		read()
	}
}

// hasBulkhead reports whether a call already has bulkhead settings.
func hasBulkhead(c callOut) bool {
	for _, st := range c.settings {
		if strings.HasPrefix(st.key, "bulkhead.") {
			return true
		}
	}
	return false
}

// section reads one resilience4j section: its configs, then its
// instances, in file order.
func (g *r4jReader) section(f field, s src) {
	if g.collectOnly {
		g.collect(f)
		return
	}
	if !r4jSections[f.key] {
		g.warn(s, "not a resilience4j section ressim knows; ignored")
		return
	}
	if f.key == "ratelimiter" {
		g.warn(s, "not modelled: a client-side rate limiter has no counterpart in ressim (its clients' rates are the load)")
		return
	}
	configs := g.configs[f.key]
	var instances []field
	for _, sf := range fields(f.value) {
		switch sf.key {
		case "configs":
		case "instances", "backends":
			instances = append(instances, fields(sf.value)...)
		case "retryAspectOrder", "circuitBreakerAspectOrder":
			if _, err := strconv.Atoi(sf.value.Value); err != nil {
				g.fail(at(g.file, sf.kpos, s.key+"."+sf.key), "value %q: want an integer (a Spring aspect order)", sf.value.Value)
			}
		default:
			g.warn(at(g.file, sf.kpos, s.key+"."+sf.key), "not modelled; ignored")
		}
	}
	for _, in := range instances {
		g.instance(f.key, in, configs, s.key)
	}
}

// collect adds a section's named configs to g.configs; a name two files
// define is the first file's (Spring gives the later profile precedence,
// which the import does not know: say the files in that order).
func (g *r4jReader) collect(f field) {
	configs := g.configs[f.key]
	if configs == nil {
		configs = map[string]r4jConfig{}
		g.configs[f.key] = configs
	}
	for _, sf := range fields(f.value) {
		switch sf.key {
		case "configs":
			for _, c := range fields(sf.value) {
				if _, ok := configs[c.key]; !ok {
					configs[c.key] = r4jConfig{c, g.file}
				}
			}
		case "retryAspectOrder", "circuitBreakerAspectOrder":
			if o, err := strconv.Atoi(sf.value.Value); err == nil {
				if _, ok := g.sk.r4jOrders[sf.key]; !ok {
					g.sk.r4jOrders[sf.key] = r4jOrder{o, at(g.file, sf.kpos, sf.key)}
				}
			}
		}
	}
}

// resolved is one effective property of an instance and where it is set.
type resolved struct {
	value *yaml.Node
	from  src
}

// instance merges an instance over its base config (baseConfig, or the
// config named "default") and maps every property.
func (g *r4jReader) instance(kind string, in field, configs map[string]r4jConfig, section string) {
	key := section + ".instances." + in.key
	if i, ok := g.calls[in.key]; ok && kind == "thread-pool-bulkhead" && hasBulkhead(g.sk.calls[i]) {
		// resilience4j keeps both; each method's @Bulkhead(type = ...)
		// picks one, SEMAPHORE by default (resilience4j-annotations,
		// Bulkhead.type). A call of the model has one bulkhead.
		g.warn(at(g.file, in.kpos, key), "%s also has a semaphore bulkhead, which @Bulkhead uses by default (type = SEMAPHORE): that one is imported; this thread-pool bulkhead applies to methods annotated type = THREADPOOL, which one call of the model cannot also have", in.key)
		return
	}
	props := map[string]resolved{}
	base := "default"
	for _, f := range fields(in.value) {
		if f.key == "baseConfig" {
			base = f.value.Value
			if _, ok := configs[base]; !ok {
				g.fail(at(g.file, f.value, key+".baseConfig"), "no config named %q in this section", base)
			}
		}
	}
	if c, ok := configs[base]; ok {
		for _, f := range fields(c.value) {
			props[f.key] = resolved{f.value, at(c.file, f.kpos, fmt.Sprintf("%s.configs.%s.%s", section, base, f.key))}
		}
	}
	for _, f := range fields(in.value) {
		if f.key != "baseConfig" {
			props[f.key] = resolved{f.value, at(g.file, f.kpos, key+"."+f.key)}
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { // source order: line, then column
		a, b := props[names[i]].from, props[names[j]].from
		return a.line < b.line || a.line == b.line && a.col < b.col
	})
	c := g.call(in, key)
	for _, k := range names {
		g.property(kind, k, props[k], c, props)
	}
	g.r4jFillDefaults(kind, c, at(g.file, in.kpos, key), props)
}

// call returns the call for an instance, created on first use: callee
// service named after the instance.
func (g *r4jReader) call(in field, key string) *callOut {
	if i, ok := g.calls[in.key]; ok {
		return &g.sk.calls[i]
	}
	s := at(g.file, in.kpos, key)
	name := in.key
	if !goodName(name) {
		g.fail(s, "instance %q is not a valid ressim service name (1-64 letters, digits, '-', '_', '.'; not \".\", \"..\" or the skeleton's \"caller\")", name)
		name = "invalid"
	}
	g.calls[in.key] = len(g.sk.calls)
	g.sk.calls = append(g.sk.calls, callOut{service: name, from: s, sk: g.sk})
	return &g.sk.calls[len(g.sk.calls)-1]
}

func (c *callOut) set(key, value string, from src) {
	for i := range c.settings {
		if c.settings[i].key == key {
			c.settings[i] = c.sk.merge(c.settings[i], setting{key, value, from})
			return
		}
	}
	c.settings = append(c.settings, setting{key, value, from})
}

func quoteDur(n *yaml.Node) (string, error) {
	d, err := springDuration(n.Value)
	if err != nil {
		return "", err
	}
	return strconv.Quote(d.String()), nil
}
