package sweep

import (
	"math"
	"strconv"
	"strings"

	"github.com/ressim/ressim/sim/topology"
)

// Capacity is the rate of one client's user requests that keeps the
// bottleneck service's workers busy all the time, from the configuration
// alone (docs/model.md, "Capacity"):
//
//	capacity(c) = min over services s of (W_s / h_s − Σ other open-loop
//	              clients o: rate_o × v_s(o)) / v_s(c)
//
// W_s = instances × workers (max_in_flight in async mode); v_s(c) is the
// mean number of attempts at s per user request of client c, down the
// call graph: call probability × attempts × (1 − cache hit ratio) at
// every hop; h_s is the mean time an attempt holds a worker of s: its
// local work, plus, for each downstream call, probability × attempts ×
// (both network legs + the callee's holding time), the slowest call of a
// parallel step. No queueing, contention, faults or timeouts: the
// capacity of the healthy system. Attempts are 1 per call (Rate), or the
// retry policies' max_attempts everywhere (Retried, the rate a retry
// storm that retries every call to the limit saturates).
type Capacity struct {
	// Rate and Retried are user requests per second; Retried equals
	// Rate when nothing retries.
	Rate, Retried float64
	// Service is the bottleneck (of Rate).
	Service string
}

// ClientCapacity is the capacity for client (a name, or an index as in
// "client.0.rate"); ok is false for an unknown client or a model whose
// capacity is not finite and positive.
func ClientCapacity(cfg topology.Config, client string) (Capacity, bool) {
	ci := clientIndex(cfg, client)
	if ci < 0 {
		return Capacity{}, false
	}
	rate, svc := capacityOf(cfg, ci, false)
	retried, _ := capacityOf(cfg, ci, true)
	ok := rate > 0 && !math.IsInf(rate, 0) && retried > 0
	return Capacity{Rate: rate, Retried: retried, Service: svc}, ok
}

// clientIndex finds a client by name or index; -1 if there is none.
func clientIndex(cfg topology.Config, client string) int {
	for i, c := range cfg.Clients {
		if c.Name == client {
			return i
		}
	}
	if i, err := strconv.Atoi(client); err == nil && i >= 0 && i < len(cfg.Clients) {
		return i
	}
	return -1
}

// rateClient is the client whose rate a sweep axis path sets
// ("client.NAME.rate"), or "".
func rateClient(path string) string {
	parts := strings.Split(path, ".")
	if len(parts) == 3 && parts[0] == "client" && parts[2] == "rate" {
		return parts[1]
	}
	return ""
}

// capacityOf is client ci's capacity and its bottleneck (see Capacity).
func capacityOf(cfg topology.Config, ci int, retried bool) (float64, string) {
	g := newLoadGraph(cfg, retried)
	own := g.visits(cfg.Clients[ci])
	others := map[string]float64{}
	for i, c := range cfg.Clients {
		if i == ci || c.Users > 0 {
			continue
		}
		for s, v := range g.visits(c) {
			others[s] += c.Rate * v
		}
	}
	best, at := math.Inf(1), ""
	for _, s := range cfg.Services { // in file order: ties go to the first
		v := own[s.Name]
		if v <= 0 {
			continue
		}
		slots := float64(max(s.Instances, 1) * s.Workers)
		if s.Mode == topology.Async {
			slots = float64(max(s.Instances, 1) * s.MaxInFlight)
		}
		h := g.hold(s.Name, "")
		if h <= 0 {
			continue
		}
		if c := (slots/h - others[s.Name]) / v; c < best {
			best, at = max(c, 0), s.Name
		}
	}
	return best, at
}

// loadGraph walks the call graph (acyclic: Validate rejects cycles).
type loadGraph struct {
	svc     map[string]*topology.ServiceConfig
	retried bool
	memo    map[string]float64
}

func newLoadGraph(cfg topology.Config, retried bool) *loadGraph {
	g := &loadGraph{svc: map[string]*topology.ServiceConfig{}, retried: retried, memo: map[string]float64{}}
	for i := range cfg.Services {
		g.svc[cfg.Services[i].Name] = &cfg.Services[i]
	}
	return g
}

// attempts is the attempts a call makes: 1, or its retry limit.
func (g *loadGraph) attempts(p topology.CallPolicy) float64 {
	if g.retried {
		return float64(max(p.Retry.MaxAttempts, 1))
	}
	return 1
}

// reach is the share of a call's attempts that reach the service: all
// but the warm cache's hits.
func (g *loadGraph) reach(service string) float64 {
	if s := g.svc[service]; s != nil && s.Cache != nil {
		return 1 - s.Cache.HitRatio
	}
	return 1
}

// visits is the attempts at every service per user request of c.
func (g *loadGraph) visits(c topology.ClientConfig) map[string]float64 {
	out := map[string]float64{}
	var walk func(service, op string, n float64, depth int)
	walk = func(service, op string, n float64, depth int) {
		s := g.svc[service]
		if s == nil || depth > len(g.svc) {
			return
		}
		out[service] += n
		steps, _ := s.HandlerFor(op)
		for _, st := range steps {
			for i, cc := range st.Calls {
				walk(cc.Service, cc.Operation, n*st.Share(i)*g.attempts(cc.Policy)*g.reach(cc.Service), depth+1)
			}
		}
	}
	walk(c.Target, c.Operation, g.attempts(c.Call)*g.reach(c.Target), 0)
	return out
}

// hold is the mean time, seconds, an attempt at service's op holds a
// worker (see Capacity), memoised.
func (g *loadGraph) hold(service, op string) float64 {
	key := service + "\x00" + op
	if v, ok := g.memo[key]; ok {
		return v
	}
	g.memo[key] = 0 // a cycle (rejected by Validate) costs nothing more
	s := g.svc[service]
	if s == nil {
		return 0
	}
	steps, _ := s.HandlerFor(op)
	var h float64
	for _, st := range steps {
		if st.Kind == topology.WorkStep {
			h += st.Work.Mean().Seconds()
		}
		var slowest float64
		for i, cc := range st.Calls {
			d := st.Share(i) * g.attempts(cc.Policy) *
				(2*cc.Policy.Network.Mean().Seconds() + g.reach(cc.Service)*g.hold(cc.Service, cc.Operation))
			if st.Kind == topology.ParallelStep {
				slowest = max(slowest, d)
			} else {
				h += d
			}
		}
		h += slowest
	}
	g.memo[key] = h
	return h
}
