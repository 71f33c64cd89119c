package topology

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/ressim/ressim/sim/engine"
)

// TraceConfig samples end-user requests for a trace of their lives.
type TraceConfig struct {
	// Every traces one user request in Every (counted over all clients,
	// in sending order); 0 disables tracing.
	Every int
	// Max bounds the number of requests traced; 0 means DefaultTraceMax.
	Max int
}

// DefaultTraceMax is the requests traced at most when TraceConfig.Max is 0.
const DefaultTraceMax = 200

// traceSpan is one slice of a traced request's life.
type traceSpan struct {
	req       int // the traced request's number, from 1
	cat, name string
	from, to  engine.Time
	args      string // "key=value" pairs, for the viewer
}

// tracer collects the spans of sampled requests.
type tracer struct {
	cfg   TraceConfig
	n     int // user requests seen
	reqs  int // requests traced
	spans []traceSpan
	names []string // per traced request: "request N from CLIENT"
	// otel are the spans of the OpenTelemetry trace (tracespans.go),
	// roots each traced request's root span; stop is the run's end, the
	// end of the spans still open then.
	otel  []otelSpan
	roots []int32
	stop  engine.Time
}

// sample decides whether the next user request is traced and returns its
// number (0: not traced).
func (t *tracer) sample(client string) int32 {
	if t == nil {
		return 0
	}
	t.n++
	max := t.cfg.Max
	if max == 0 {
		max = DefaultTraceMax
	}
	if (t.n-1)%t.cfg.Every != 0 || t.reqs >= max {
		return 0
	}
	t.reqs++
	t.names = append(t.names, fmt.Sprintf("request %d from %s", t.reqs, client))
	return int32(t.reqs)
}

func (t *tracer) add(req int32, cat, name string, from, to engine.Time, args string) {
	if t == nil || req == 0 {
		return
	}
	t.spans = append(t.spans, traceSpan{req: int(req), cat: cat, name: name, from: from, to: to, args: args})
}

// WriteTrace writes the sampled requests as Chrome trace-event JSON, which
// Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per
// request, its request, calls, attempts, queue waits, work and retry
// backoffs as async slices (they may overlap: parallel calls, work that
// outlives a caller's timeout). Times are in microseconds of simulated
// time. It writes nothing useful if the run had tracing off.
func (r *Result) WriteTrace(w io.Writer) error {
	t := r.trace
	type ev struct {
		Name string            `json:"name"`
		Cat  string            `json:"cat,omitempty"`
		Ph   string            `json:"ph"`
		ID   int               `json:"id,omitempty"`
		Pid  int               `json:"pid"`
		Tid  int               `json:"tid"`
		Ts   json.Number       `json:"ts"`
		Args map[string]string `json:"args,omitempty"`
	}
	us := func(x engine.Time) json.Number {
		return json.Number(strconv.FormatFloat(float64(x)/1e3, 'f', -1, 64))
	}
	var evs []ev
	if t != nil {
		for i, n := range t.names {
			evs = append(evs, ev{Name: "process_name", Ph: "M", Pid: i + 1, Args: map[string]string{"name": n}})
		}
		for i, s := range t.spans {
			var args map[string]string
			if s.args != "" {
				args = map[string]string{"detail": s.args}
			}
			evs = append(evs,
				ev{Name: s.name, Cat: s.cat, Ph: "b", ID: i + 1, Pid: s.req, Ts: us(s.from), Args: args},
				ev{Name: s.name, Cat: s.cat, Ph: "e", ID: i + 1, Pid: s.req, Ts: us(s.to)})
		}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(struct {
		TraceEvents     []ev   `json:"traceEvents"`
		DisplayTimeUnit string `json:"displayTimeUnit"`
	}{TraceEvents: append([]ev{}, evs...), DisplayTimeUnit: "ms"})
}
