package preset

import (
	"fmt"
	"sort"

	"github.com/ressim/ressim/sim/fit/observe"
	"github.com/ressim/ressim/sim/telemetry"
)

// builder collects a preset's findings into Observations. The maps are
// lookups only; output order comes from sorting by name.
type builder struct {
	x        *index
	services map[string]*observe.Service
	clients  map[string]*observe.Client
	edges    map[key]*observe.Edge
	// seen holds services as their callers see them (a proxy's
	// upstream stats): used for what the service's own series lack.
	seen  map[string]*observe.Service
	notes []string
	err   error
	// quiet silences the note on series a keyFunc skips, for a second
	// pass over series already noted.
	quiet bool
}

func newBuilder(x *index) *builder {
	return &builder{x: x, services: make(map[string]*observe.Service),
		clients: make(map[string]*observe.Client), edges: make(map[key]*observe.Edge),
		seen: make(map[string]*observe.Service)}
}

func (b *builder) notef(format string, args ...any) {
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

func (b *builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// service returns the named service, adding it if new.
func (b *builder) service(name string) *observe.Service {
	s, ok := b.services[name]
	if !ok {
		s = &observe.Service{Name: name}
		b.services[name] = s
	}
	return s
}

// seenService returns the named service as its callers see it, adding
// it if new; its fields stand in for those the service's own series do
// not give.
func (b *builder) seenService(name string) *observe.Service {
	s, ok := b.seen[name]
	if !ok {
		s = &observe.Service{Name: name}
		b.seen[name] = s
	}
	return s
}

// mergeSeen fills each service's missing fields from its callers' view.
func (b *builder) mergeSeen() {
	for name, v := range b.seen {
		s := b.service(name)
		if s.Requests == nil {
			s.Requests = v.Requests
		}
		if s.Errors == nil {
			s.Errors = v.Errors
		}
		if s.Latency == nil {
			s.Latency = v.Latency
		}
	}
}

// client returns the named client, adding it if new.
func (b *builder) client(name string) *observe.Client {
	c, ok := b.clients[name]
	if !ok {
		c = &observe.Client{Name: name}
		b.clients[name] = c
	}
	return c
}

// edge returns the edge k (caller, callee, operation), adding it if new.
func (b *builder) edge(k key) *observe.Edge {
	e, ok := b.edges[k]
	if !ok {
		e = &observe.Edge{Caller: k.a, Callee: k.b, Operation: k.c}
		b.edges[k] = e
	}
	return e
}

// groups selects sel's series and splits them by kf, noting the skipped.
func (b *builder) groups(sel selector, kf keyFunc) []group {
	series, err := b.x.selectSeries(sel)
	if err != nil {
		b.fail(err)
		return nil
	}
	gs, skipped := groupSeries(series, kf)
	if skipped > 0 && !b.quiet {
		b.notef("%d series of %s skipped: no entity to give them to", skipped, sel)
	}
	return gs
}

// quietly runs f without noting skipped series.
func (b *builder) quietly(f func()) {
	b.quiet = true
	defer func() { b.quiet = false }()
	f()
}

// callee turns an edge keyFunc into one keyed by the callee alone, for
// the callee's requests as all its callers see them.
func callee(kf keyFunc) keyFunc {
	return func(s *telemetry.Series) (key, bool) {
		k, ok := kf(s)
		return key{a: k.b}, ok && k.b != ""
	}
}

// counters sums sel's series per entity and hands each counter to set.
func (b *builder) counters(sel selector, kf keyFunc, set func(key, *observe.Counter)) {
	for _, g := range b.groups(sel, kf) {
		set(g.key, counterOf(g.series))
	}
}

// gauges sums sel's series per entity and hands each gauge to set.
func (b *builder) gauges(sel selector, kf keyFunc, set func(key, *observe.Gauge)) {
	for _, g := range b.groups(sel, kf) {
		set(g.key, gaugeOf(g.series))
	}
}

// unit says how a histogram's values are measured.
type unit int

const (
	unitAuto         unit = iota // by the family's name or declared unit
	unitSeconds                  // seconds whatever the name
	unitMilliseconds             // milliseconds whatever the name
)

// histograms builds the histogram family base (sel.name, without
// _bucket) per entity from its _bucket, _sum and _count series whose
// labels (le aside) match sel and hands each to set.
func (b *builder) histograms(sel selector, kf keyFunc, u unit, set func(key, *observe.Histogram)) {
	base := sel.name
	ms := u == unitMilliseconds || (u == unitAuto && b.x.isMilliseconds(base))
	div := 1.0
	if ms {
		div = 1000
	}
	bare := func(s *telemetry.Series) (key, bool) { return kf(withoutLe(s)) }
	parts := make(map[key]*histogramParts) // lookup only
	var order []key
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		for _, g := range b.groups(sel.with(base+suffix), bare) {
			p, ok := parts[g.key]
			if !ok {
				p = &histogramParts{}
				parts[g.key] = p
				order = append(order, g.key)
			}
			switch suffix {
			case "_bucket":
				p.buckets = g.series
			case "_sum":
				p.sums = g.series
			default:
				p.counts = g.series
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].less(order[j]) })
	noted := false
	for _, k := range order {
		h, err := histogramOf(*parts[k], div)
		if err != nil {
			b.fail(fmt.Errorf("histogram %s: %w", base, err))
			return
		}
		if h == nil {
			continue
		}
		if ms && !noted && !b.quiet {
			b.notef("histogram %s is in milliseconds: bounds and sums rescaled to seconds", base)
			noted = true
		}
		set(k, h)
	}
}

// observations returns what was found, sorted, or an error when nothing
// was.
func (b *builder) observations(name string, lookedFor []selector) (observe.Observations, error) {
	if b.err != nil {
		return observe.Observations{}, fmt.Errorf("preset %s: %w", name, b.err)
	}
	b.mergeSeen()
	o := observe.Observations{Preset: name, Notes: b.notes}
	for _, s := range b.services {
		o.Services = append(o.Services, *s)
	}
	for _, c := range b.clients {
		o.Clients = append(o.Clients, *c)
	}
	for _, e := range b.edges {
		o.Edges = append(o.Edges, *e)
	}
	sort.Slice(o.Services, func(i, j int) bool { return o.Services[i].Name < o.Services[j].Name })
	sort.Slice(o.Clients, func(i, j int) bool { return o.Clients[i].Name < o.Clients[j].Name })
	sort.Slice(o.Edges, func(i, j int) bool {
		a, c := o.Edges[i], o.Edges[j]
		return key{a.Caller, a.Callee, a.Operation}.less(key{c.Caller, c.Callee, c.Operation})
	})
	if len(o.Services)+len(o.Clients)+len(o.Edges) == 0 {
		return observe.Observations{}, fmt.Errorf("preset %s: no series recognised; looked for %s", name, listSelectors(lookedFor))
	}
	return o, nil
}

func listSelectors(sels []selector) string {
	s := ""
	for i, sel := range sels {
		if i > 0 {
			s += ", "
		}
		s += sel.String()
	}
	return s
}

// byLabels returns a keyFunc taking the entity from the first non-empty
// of the labels.
func byLabels(names ...string) func(s *telemetry.Series) string {
	return func(s *telemetry.Series) string {
		for _, n := range names {
			if v := s.Label(n); v != "" {
				return v
			}
		}
		return ""
	}
}

// one makes a keyFunc for single-name entities from a name function;
// an empty name skips the series.
func one(name func(*telemetry.Series) string) keyFunc {
	return func(s *telemetry.Series) (key, bool) {
		n := name(s)
		return key{a: n}, n != ""
	}
}
