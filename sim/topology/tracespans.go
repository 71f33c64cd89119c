package topology

import (
	"strings"

	"github.com/ressim/ressim/sim/engine"
	"github.com/ressim/ressim/sim/policies"
)

// OpenTelemetry's span kinds, as OTLP numbers them.
const (
	spanServer = 2 // a service handling an attempt
	spanClient = 3 // a user's request, or an attempt as its caller sent it
)

// otelSpan is one span of a traced request in the OpenTelemetry model
// (WriteOTLPTrace): the user's request (the root, a CLIENT span of the
// client), each attempt as its caller saw it (CLIENT, a child of the
// caller's SERVER span or of the root) and each attempt's handling at the
// callee (SERVER, a child of its CLIENT span). Spans are numbered by
// their index in tracer.otel plus one, which is also their span ID.
type otelSpan struct {
	req      int32  // the traced request
	parent   int32  // the parent's number; 0: the root
	server   int32  // a CLIENT attempt's SERVER span; 0: none (yet)
	attempt  int32  // a CLIENT attempt's number in its call, from 1
	instance int32  // a SERVER span's instance
	kind     uint8  // spanServer or spanClient
	ofClient bool   // resource is a client's name, not a service's
	resource string // the client's or the service's name
	peer, op string // the callee and the operation (CLIENT); the operation (SERVER)
	from, to engine.Time
	ended    bool
	failed   bool
	detail   string // how it ended
}

// span returns span number n, or nil for 0.
func (t *tracer) span(n int32) *otelSpan {
	if n <= 0 || int(n) > len(t.otel) {
		return nil
	}
	return &t.otel[n-1]
}

// open appends s and returns its number. It may move t.otel: a pointer
// from span taken before it is stale after.
func (t *tracer) open(s otelSpan) int32 {
	t.otel = append(t.otel, s)
	return int32(len(t.otel))
}

// end closes span n at now, once.
func (t *tracer) end(n int32, now engine.Time, failed bool, detail string) {
	if s := t.span(n); s != nil && !s.ended {
		s.to, s.ended, s.failed, s.detail = now, true, failed, detail
	}
}

// rootStart opens the root span of traced request u, sent by c at now.
func (t *tracer) rootStart(u *userReq, c *client, now engine.Time) {
	n := t.open(otelSpan{req: u.trace, kind: spanClient, ofClient: true, resource: c.cfg.Name,
		peer: c.cfg.Target, op: c.site.op, from: now})
	t.roots = append(t.roots, n)
}

// root returns the number of request req's root span.
func (t *tracer) root(req int32) int32 {
	if req <= 0 || int(req) > len(t.roots) {
		return 0
	}
	return t.roots[req-1]
}

// callParent is the span a traced call's attempts are children of: its
// handler's SERVER span, or the user's request.
func (t *tracer) callParent(job *attempt, user *userReq) int32 {
	switch {
	case job != nil:
		if s := t.span(job.tspan); s != nil {
			return s.server
		}
	case user != nil:
		return t.root(user.trace)
	}
	return 0
}

// attemptStart opens the CLIENT span of attempt a of call c, sent at now,
// and returns its number.
func (t *tracer) attemptStart(a *attempt, c *call, now engine.Time) int32 {
	site := a.site
	name, ofClient := strings.CutPrefix(site.caller, "client:")
	return t.open(otelSpan{req: a.trace, parent: c.tparent, kind: spanClient, attempt: int32(a.num),
		ofClient: ofClient, resource: name, peer: site.callee, op: site.op, from: now})
}

// serverStart opens the SERVER span of attempt a, arrived at in at now.
func (t *tracer) serverStart(a *attempt, in *instance, now engine.Time) {
	if cl := t.span(a.tspan); cl == nil || cl.server != 0 {
		return
	}
	n := t.open(otelSpan{req: a.trace, parent: a.tspan, kind: spanServer, instance: int32(in.idx),
		resource: in.svc.cfg.Name, op: a.site.op, from: now})
	t.span(a.tspan).server = n // after open, which may move t.otel
}

// serverEnd closes a's SERVER span as a leaves its instance with o.
func (t *tracer) serverEnd(a *attempt, now engine.Time, o policies.Outcome) {
	if cl := t.span(a.tspan); cl != nil {
		t.end(cl.server, now, o != policies.Success, o.String())
	}
}
