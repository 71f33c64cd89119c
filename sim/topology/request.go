package topology

import "github.com/ressim/ressim/sim/engine"

// request is one end-user request, from its intended send time to its
// response. Requests are pooled: a run allocates only as many as are in
// flight at once.
type request struct {
	client   *client
	sent     engine.Time // intended send time; latency is measured from here
	enqueued engine.Time // arrival at the instance
	started  engine.Time // service start
	measured bool        // sent inside the measurement window
	next     *request    // free-list link
}

// requestPool is a free list of requests.
type requestPool struct {
	free      *request
	live      int // requests in use
	allocated int // requests ever allocated: the peak of live
}

func (p *requestPool) get() *request {
	p.live++
	if r := p.free; r != nil {
		p.free = r.next
		*r = request{}
		return r
	}
	p.allocated++
	return new(request)
}

func (p *requestPool) put(r *request) {
	p.live--
	r.client = nil
	r.next = p.free
	p.free = r
}
