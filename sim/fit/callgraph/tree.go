package callgraph

import (
	"sort"

	"github.com/ressim/ressim/sim/telemetry"
)

// node is one span with its resolved parent and children.
type node struct {
	span   *telemetry.Span
	parent int   // index into tree.nodes, -1 for none
	kids   []int // in start order
	timed  bool
	orphan bool
}

// tree holds the spans in a deterministic order with their parent links
// resolved, and the counts of what was wrong with them.
type tree struct {
	nodes                         []node
	orphans, cycles, dups, shared int
	sameHop                       int
	skew                          int
	maxSkew                       int64 // ns
	backwards, untimed            int
}

// less orders spans by every field that tells two apart, so equal input
// gives equal order whatever order it came in.
func less(a, b *telemetry.Span) bool {
	switch {
	case a.TraceID != b.TraceID:
		return a.TraceID < b.TraceID
	case a.Start != b.Start:
		return a.Start < b.Start
	case a.SpanID != b.SpanID:
		return a.SpanID < b.SpanID
	case a.Kind != b.Kind:
		return a.Kind < b.Kind
	case a.Service != b.Service:
		return a.Service < b.Service
	case a.ParentID != b.ParentID:
		return a.ParentID < b.ParentID
	case a.End != b.End:
		return a.End < b.End
	case a.Operation != b.Operation:
		return a.Operation < b.Operation
	}
	return a.Peer < b.Peer
}

func newTree(spans []telemetry.Span) *tree {
	ptrs := make([]*telemetry.Span, len(spans))
	for i := range spans {
		ptrs[i] = &spans[i]
	}
	sort.SliceStable(ptrs, func(i, j int) bool { return less(ptrs[i], ptrs[j]) })
	t := &tree{nodes: make([]node, len(ptrs))}
	for i, s := range ptrs {
		n := &t.nodes[i]
		n.span, n.parent = s, -1
		switch {
		case s.End < s.Start:
			t.backwards++
		case s.Start == 0 && s.End == 0:
			t.untimed++
		default:
			n.timed = true
		}
	}
	for lo := 0; lo < len(ptrs); {
		hi := lo + 1
		for hi < len(ptrs) && ptrs[hi].TraceID == ptrs[lo].TraceID {
			hi++
		}
		t.link(lo, hi)
		lo = hi
	}
	t.cutCycles()
	for i := range t.nodes {
		if p := t.nodes[i].parent; p >= 0 {
			t.nodes[p].kids = append(t.nodes[p].kids, i)
		}
	}
	t.checkSkew()
	return t
}

// link resolves the parents of the spans of one trace, nodes[lo:hi].
func (t *tree) link(lo, hi int) {
	byID := make(map[string][]int, hi-lo)
	for i := lo; i < hi; i++ {
		id := t.nodes[i].span.SpanID
		byID[id] = append(byID[id], i)
	}
	for i := lo; i < hi; i++ {
		s := t.nodes[i].span
		same := byID[s.SpanID]
		if len(same) > 1 && same[0] == i && duplicated(t, same) {
			t.dups++
		}
		// The server half of a Zipkin shared span is the client half's
		// child.
		if s.Kind == telemetry.KindServer {
			if c := pick(t, same, i, func(c *telemetry.Span) bool { return c.Kind == telemetry.KindClient }); c >= 0 {
				t.nodes[i].parent = c
				t.shared++
				continue
			}
		}
		// A kindless span with the ID of a server span of its own service
		// (Zipkin v1 data converted to v2 writes the server's local work
		// so) is part of that server span's request.
		if s.Kind != telemetry.KindServer && s.Kind != telemetry.KindClient {
			if c := pick(t, same, i, func(c *telemetry.Span) bool {
				return c.Kind == telemetry.KindServer && c.Service == s.Service
			}); c >= 0 {
				t.nodes[i].parent = c
				t.sameHop++
				continue
			}
		}
		if s.ParentID == "" {
			continue
		}
		cands := byID[s.ParentID]
		p := pick(t, cands, i, func(c *telemetry.Span) bool { return c.Service == s.Service && c.Kind != telemetry.KindClient })
		if p < 0 {
			p = pick(t, cands, i, func(c *telemetry.Span) bool { return c.Service == s.Service })
		}
		if p < 0 {
			p = pick(t, cands, i, func(c *telemetry.Span) bool { return c.Kind == telemetry.KindClient })
		}
		if p < 0 {
			p = pick(t, cands, i, func(*telemetry.Span) bool { return true })
		}
		if p < 0 {
			if s.ParentID == s.SpanID {
				t.cycles++
			} else {
				t.orphans++
				t.nodes[i].orphan = true
			}
			continue
		}
		t.nodes[i].parent = p
	}
}

// pick returns the first of cands other than self that ok accepts, or -1.
func pick(t *tree, cands []int, self int, ok func(*telemetry.Span) bool) int {
	for _, c := range cands {
		if c != self && ok(t.nodes[c].span) {
			return c
		}
	}
	return -1
}

// duplicated reports whether two of the spans with one ID share a
// service and a kind: one span written twice, or two spans given one ID.
// A Zipkin shared span's client and server halves, and a server's
// kindless local half, are not duplicates.
func duplicated(t *tree, ids []int) bool {
	for a := range ids {
		for b := a + 1; b < len(ids); b++ {
			x, y := t.nodes[ids[a]].span, t.nodes[ids[b]].span
			if x.Service == y.Service && x.Kind == y.Kind {
				return true
			}
		}
	}
	return false
}

// cutCycles removes one parent link of each cycle (that of the first
// span, in order, found on it) and counts them.
func (t *tree) cutCycles() {
	const (
		fresh = iota
		onPath
		done
	)
	state := make([]uint8, len(t.nodes))
	var path []int
	for i := range t.nodes {
		path = path[:0]
		for j := i; j >= 0 && state[j] != done; j = t.nodes[j].parent {
			if state[j] == onPath {
				// The cycle closes at j: cut the link that reached it.
				last := path[len(path)-1]
				t.nodes[last].parent = -1
				t.cycles++
				break
			}
			state[j] = onPath
			path = append(path, j)
		}
		for _, j := range path {
			state[j] = done
		}
	}
}

// checkSkew counts timed spans that start before or end after their
// timed parent, leaving out asynchronous (producer/consumer) links.
func (t *tree) checkSkew() {
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.parent < 0 || !n.timed || !t.nodes[n.parent].timed {
			continue
		}
		p := t.nodes[n.parent].span
		if n.span.Kind == telemetry.KindConsumer || p.Kind == telemetry.KindProducer {
			continue
		}
		off := max(p.Start-n.span.Start, n.span.End-p.End)
		if off > 0 {
			t.skew++
			t.maxSkew = max(t.maxSkew, off)
		}
	}
}
