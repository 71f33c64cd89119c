package callgraph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ressim/ressim/sim/telemetry"
)

// call is one call a request makes.
type call struct {
	callee string
	iv     interval
	timed  bool
	err    bool
}

// edgeKey names an edge.
type edgeKey struct{ caller, callee string }

// builder accumulates the graph as the requests are read.
type builder struct {
	t          *tree
	thinkGap   int64 // ns, <= 0 for none
	services   map[string]*Service
	ops        map[string]map[string]bool
	edges      map[edgeKey]*Edge
	hist       map[edgeKey]map[int]int // calls per request → requests, k >= 1
	roots      map[[2]string]*Arrivals
	noCallee   int
	peersOnly  map[string]bool
	cappedOps  int
	selfNested int
}

// Build reads the call graph from spans, which it does not modify. It
// fails only when there are more spans than opt.MaxSpans; what is wrong
// with the data itself is reported in Graph.Issues.
func Build(spans []telemetry.Span, opt Options) (*Graph, error) {
	if opt.MaxSpans <= 0 {
		opt.MaxSpans = DefaultMaxSpans
	}
	if len(spans) > opt.MaxSpans {
		return nil, fmt.Errorf("callgraph: %d spans is more than the limit of %d", len(spans), opt.MaxSpans)
	}
	if opt.ThinkGap == 0 {
		opt.ThinkGap = DefaultThinkGap
	}
	b := &builder{
		t:         newTree(spans),
		thinkGap:  int64(opt.ThinkGap),
		services:  map[string]*Service{},
		ops:       map[string]map[string]bool{},
		edges:     map[edgeKey]*Edge{},
		hist:      map[edgeKey]map[int]int{},
		roots:     map[[2]string]*Arrivals{},
		peersOnly: map[string]bool{},
	}
	for i := range b.t.nodes {
		if b.entry(i) {
			b.request(i)
		}
		if b.t.nodes[i].parent < 0 {
			b.root(i)
		}
	}
	g := b.graph()
	return g, nil
}

// svc returns the service of node i.
func (b *builder) svc(i int) string { return b.t.nodes[i].span.Service }

// entry reports whether node i is a request at its service: a server or
// consumer span, a span with no parent, or one whose parent belongs to
// another service.
func (b *builder) entry(i int) bool {
	n := &b.t.nodes[i]
	k := n.span.Kind
	return n.parent < 0 || k == telemetry.KindServer || k == telemetry.KindConsumer || b.svc(n.parent) != n.span.Service
}

// callSpan reports whether node i, not an entry, is a client span: of
// kind CLIENT or PRODUCER, or a kindless (or internal) span whose
// children all belong to other services.
func (b *builder) callSpan(i int) bool {
	n := &b.t.nodes[i]
	switch n.span.Kind {
	case telemetry.KindClient, telemetry.KindProducer:
		return true
	case telemetry.KindUnspecified, telemetry.KindInternal:
		if len(n.kids) == 0 {
			return false
		}
		for _, k := range n.kids {
			if b.svc(k) == n.span.Service {
				return false
			}
		}
		return true
	}
	return false
}

// calls returns the calls request r makes, in start order.
func (b *builder) calls(r int) []call {
	var out []call
	stack := append([]int(nil), b.t.nodes[r].kids...)
	self := b.svc(r)
	for len(stack) > 0 {
		i := stack[0]
		stack = stack[1:]
		n := &b.t.nodes[i]
		switch {
		case b.entry(i):
			if n.span.Service == self {
				b.selfNested++ // a nested request of the same service
				continue
			}
			out = append(out, b.callOf(i, i))
		case b.callSpan(i):
			server := -1
			for _, k := range n.kids {
				if b.entry(k) {
					server = k
					break
				}
			}
			c := b.callOf(i, server)
			if c.callee == "" {
				b.noCallee++
				continue
			}
			out = append(out, c)
		default:
			stack = append(stack, n.kids...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].iv.start < out[j].iv.start })
	return out
}

// callOf describes the call made by client span i (or, with i ==
// server, by the server span met directly), answered by server (-1 for
// none).
func (b *builder) callOf(i, server int) call {
	n := &b.t.nodes[i]
	c := call{iv: interval{n.span.Start, n.span.End}, timed: n.timed, err: n.span.Error}
	if server >= 0 {
		c.callee = b.svc(server)
		c.err = c.err || b.t.nodes[server].span.Error
	} else if n.span.Peer != "" {
		c.callee = n.span.Peer
		b.peersOnly[c.callee] = true
	}
	return c
}

// service returns the accumulator of the service called name.
func (b *builder) service(name string) *Service {
	s := b.services[name]
	if s == nil {
		s = &Service{Name: name}
		b.services[name] = s
		b.ops[name] = map[string]bool{}
	}
	return s
}

// request adds request r, an entry span, and its calls.
func (b *builder) request(r int) {
	n := &b.t.nodes[r]
	s := b.service(n.span.Service)
	s.Requests++
	if k := n.span.Kind; k == telemetry.KindClient || k == telemetry.KindProducer {
		s.ClientEntries++
	}
	if n.span.Error {
		s.Errors++
	}
	b.ops[s.Name][n.span.Operation] = true
	calls := b.calls(r)
	if n.timed {
		ivs := make([]interval, 0, len(calls))
		for _, c := range calls {
			if c.timed {
				ivs = append(ivs, c.iv)
			}
		}
		own, long := ownTime(n.span.Start, n.span.End, ivs, b.thinkGap)
		if long {
			s.Long++
		}
		s.Durations = append(s.Durations, seconds(n.span.End-n.span.Start))
		s.OwnTimes = append(s.OwnTimes, seconds(own))
	}
	// Group the calls by callee, in callee order.
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].callee < calls[j].callee })
	for lo := 0; lo < len(calls); {
		hi := lo + 1
		for hi < len(calls) && calls[hi].callee == calls[lo].callee {
			hi++
		}
		b.edge(s.Name, calls[lo:hi])
		lo = hi
	}
}

// edge adds the calls one request made to one callee, in start order.
func (b *builder) edge(caller string, calls []call) {
	key := edgeKey{caller, calls[0].callee}
	e := b.edges[key]
	if e == nil {
		e = &Edge{Caller: key.caller, Callee: key.callee}
		b.edges[key] = e
		b.hist[key] = map[int]int{}
	}
	e.Calls += len(calls)
	b.hist[key][min(len(calls), MaxPerRequest)]++
	var end int64
	seen := false
	for _, c := range calls {
		if c.err {
			e.Errors++
		}
		if !c.timed {
			continue
		}
		e.Latencies = append(e.Latencies, seconds(c.iv.end-c.iv.start))
		if seen {
			e.Pairs++
			if c.iv.start < end {
				e.Overlapping++
			}
		}
		end, seen = max(end, c.iv.end), true
	}
}

// root adds node i, which has no parent, to its entry point.
func (b *builder) root(i int) {
	n := &b.t.nodes[i]
	key := [2]string{n.span.Service, n.span.Operation}
	a := b.roots[key]
	if a == nil {
		a = &Arrivals{}
		b.roots[key] = a
	}
	a.Count++
	if !n.timed {
		return
	}
	if a.Timed == 0 || n.span.Start < a.Start {
		a.Start = n.span.Start
	}
	if a.Timed == 0 || n.span.Start > a.End {
		a.End = n.span.Start
	}
	a.Timed++
}

// seconds converts nanoseconds to seconds.
func seconds(ns int64) float64 { return float64(ns) / 1e9 }

// graph assembles the sorted Graph from the accumulators.
func (b *builder) graph() *Graph {
	g := &Graph{}
	for name := range b.peersOnly {
		if b.services[name] == nil {
			b.service(name)
		} else {
			delete(b.peersOnly, name)
		}
	}
	for _, s := range b.services {
		ops := make([]string, 0, len(b.ops[s.Name]))
		for op := range b.ops[s.Name] {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		if len(ops) > MaxOps {
			ops = ops[:MaxOps]
			b.cappedOps++
		}
		s.Ops = ops
		sort.Float64s(s.Durations)
		sort.Float64s(s.OwnTimes)
		g.Services = append(g.Services, *s)
	}
	sort.Slice(g.Services, func(i, j int) bool { return g.Services[i].Name < g.Services[j].Name })
	for key, e := range b.edges {
		e.CallerRequests = b.services[key.caller].Requests
		if e.CallerRequests > 0 {
			e.FanOut = float64(e.Calls) / float64(e.CallerRequests)
		}
		top, with := 0, 0
		for k, n := range b.hist[key] {
			top = max(top, k)
			with += n
		}
		e.PerRequest = make([]int, top+1)
		for k, n := range b.hist[key] {
			e.PerRequest[k] = n
		}
		e.PerRequest[0] = e.CallerRequests - with
		e.Parallel = e.Pairs > 0 && 2*e.Overlapping > e.Pairs
		sort.Float64s(e.Latencies)
		g.Edges = append(g.Edges, *e)
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, c := &g.Edges[i], &g.Edges[j]
		if a.Caller != c.Caller {
			return a.Caller < c.Caller
		}
		return a.Callee < c.Callee
	})
	for key, a := range b.roots {
		if a.Timed >= 2 && a.End > a.Start {
			a.Rate = float64(a.Timed-1) / seconds(a.End-a.Start)
		}
		g.Roots = append(g.Roots, Root{Service: key[0], Operation: key[1], Arrivals: *a})
	}
	sort.Slice(g.Roots, func(i, j int) bool {
		a, c := &g.Roots[i], &g.Roots[j]
		if a.Service != c.Service {
			return a.Service < c.Service
		}
		return a.Operation < c.Operation
	})
	b.report(g)
	return g
}

// report writes what was wrong with the data and how it was read.
func (b *builder) report(g *Graph) {
	t := b.t
	total := len(t.nodes)
	issue := func(n int, format string, args ...any) {
		if n > 0 {
			g.Issues = append(g.Issues, fmt.Sprintf(format, args...))
		}
	}
	note := func(n int, format string, args ...any) {
		if n > 0 {
			g.Notes = append(g.Notes, fmt.Sprintf(format, args...))
		}
	}
	issue(t.orphans, "%d of %d spans name a parent that is not in the data (orphans); each is counted as a root", t.orphans, total)
	issue(t.cycles, "%d parent links formed a cycle and were cut; the span whose link was cut is counted as a root", t.cycles)
	issue(t.dups, "%d span IDs are used by more than one span of a trace (other than a Zipkin shared client/server pair)", t.dups)
	issue(t.skew, "%d spans start before or end after their parent (clock skew, or work left running after the parent returned), by up to %s", t.skew, fmtDur(t.maxSkew))
	issue(t.backwards, "%d spans end before they start; they are read as untimed", t.backwards)
	note(t.untimed, "%d spans have no start time; they are counted but not timed", t.untimed)
	note(t.shared, "%d Zipkin shared spans: each server half is read as its client half's child", t.shared)
	note(t.sameHop, "%d kindless spans share the ID of a server span of their own service and are read as part of its request", t.sameHop)
	note(b.noCallee, "%d client spans name no callee (no server child, no peer) and are not counted as calls", b.noCallee)
	note(b.selfNested, "%d server spans nested in a request of their own service are read as requests of their own, not calls", b.selfNested)
	note(b.cappedOps, "%d services have more than %d operations; Ops lists the first %d", b.cappedOps, MaxOps, MaxOps)
	if len(b.peersOnly) > 0 {
		names := make([]string, 0, len(b.peersOnly))
		for n := range b.peersOnly {
			names = append(names, n)
		}
		sort.Strings(names)
		g.Notes = append(g.Notes, fmt.Sprintf("%d services are known only as client peers (no spans of their own): %s", len(names), strings.Join(names, ", ")))
	}
	long := 0
	for _, s := range g.Services {
		long += s.Long
	}
	note(long, "%d requests had an idle gap between calls longer than the think gap %s, left out of their own time", long, fmtDur(b.thinkGap))
}
