package wall

import (
	"context"
	"net/http"

	"github.com/ressim/ressim/sim/policies/health"
)

// schedule runs p's probe if it is due, else arms its timer.
func (h *Health) schedule(p *prober) {
	h.mu.Lock()
	at, ok := p.probe.NextProbeAt()
	if h.closed || !ok {
		h.mu.Unlock()
		return
	}
	d := at - h.clock.Now()
	if d > 0 {
		p.stop = h.clock.AfterFunc(d, func() { h.run(p) })
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	h.run(p)
}

// run runs p's checks, feeds the result to the probe and schedules the next
// probe.
func (h *Health) run(p *prober) {
	now := h.clock.Now()
	cfg := p.probe.Config()
	passed := make([]bool, len(p.fns))
	for i, c := range p.fns {
		ctx, cancel := h.clock.WithDeadline(context.Background(), now+cfg.Timeout)
		passed[i] = c.Fn(ctx) == nil && ctx.Err() == nil
		cancel()
	}
	took := h.clock.Now() - now
	h.mu.Lock()
	for i, ok := range passed {
		p.checks.Set(i, ok)
	}
	tr, changed := p.probe.Observe(now, p.checks.Passed(), took)
	h.mu.Unlock()
	if changed && h.onTrans != nil {
		h.onTrans(tr)
	}
	h.schedule(p)
}

// Close stops the probes' timers; the verdicts stay as they are.
func (h *Health) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, p := range h.probes {
		if p != nil && p.stop != nil {
			p.stop()
		}
	}
}

// State returns a probe's verdict; ok is false if it is not configured.
func (h *Health) State(k health.Kind) (s health.State, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if int(k) >= len(h.probes) || h.probes[k] == nil {
		return 0, false
	}
	return h.probes[k].probe.State(), true
}

// ReadyHandler serves the readiness verdict: 200 "ready", or 503
// "unready" with the first failing check. Without a readiness probe it
// answers 200.
func (h *Health) ReadyHandler() http.Handler { return h.handler(health.Readiness) }

// LiveHandler serves the liveness verdict: 200 "live", or 503 "restarting"
// with the first failing check. Without a liveness probe it answers 200.
func (h *Health) LiveHandler() http.Handler { return h.handler(health.Liveness) }

func (h *Health) handler(k health.Kind) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h.mu.Lock()
		p := h.probes[k]
		if p == nil {
			h.mu.Unlock()
			w.Write([]byte("ok\n"))
			return
		}
		st, ready := p.probe.State(), p.probe.Ready()
		failing, isFailing := p.checks.FirstFailing()
		h.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if ready {
			w.Write([]byte(st.String() + "\n"))
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		msg := st.String()
		if isFailing {
			msg += ": check " + failing + " failing"
		}
		w.Write([]byte(msg + "\n"))
	})
}
