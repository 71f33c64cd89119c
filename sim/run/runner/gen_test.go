package runner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ressim/ressim/sim/experiment"
)

// genSeed seeds the generated experiments: file i draws from
// rand.NewPCG(genSeed, i<<8|k), k the first draw that fits genMaxEvents,
// so every file is reproducible alone.
const genSeed = 0x5eed_e57

// genMaxEvents is the estimate a generated file is sized to: its client
// loads are scaled down until Estimate says at most this many events, so
// that a run fires well under 10^5 events (the estimate over-counts) and a
// few hundred files run in seconds.
const genMaxEvents = 1.5e5

// genNames are service names of realistic lengths (they are entities in
// timeseries.csv, whose size the output estimate predicts).
var genNames = []string{"api", "db", "auth", "gateway", "catalogue", "recommendations",
	"payments-processor", "inventory", "search-backend", "cache-tier", "orders", "ledger"}

// genOps are operation names, some of which timeseries.csv quotes in
// the call sites' entities.
var genOps = []string{"op0", "GetItem", "list items, paged", `say "hi"`, "call"}

// genExperiment returns the text of generated experiment i and the model
// it parses to: 1 to 5 services in a DAG of calls, clients open or
// closed-loop, every call and service policy sometimes, faults sometimes,
// every queue bounded (an unbounded queue is the one growth the estimate
// cannot see; the run-time memory budget catches it). The client loads are
// scaled down until the estimate is at most genMaxEvents; a draw that
// does not fit even at the least load (a rate of 0.01/s, one user: about
// 5 % of draws, whose fan-out of retries at every layer the estimate
// counts in full) is replaced by the next.
func genExperiment(i int) (string, experiment.Experiment, error) {
	for k := uint64(0); ; k++ {
		scale := 1.0
		for try := 0; try < 8; try++ {
			text := genText(uint64(i)<<8|k, i, scale)
			exp, err := experiment.Parse(fmt.Sprintf("gen%03d.toml", i), []byte(text))
			if err != nil {
				return text, experiment.Experiment{}, err
			}
			est := Estimate(exp.Model).Events
			if est <= genMaxEvents {
				return text, *exp, nil
			}
			scale *= 0.9 * genMaxEvents / est
		}
	}
}

// gen draws the parts of one file. Every draw comes from r, in a fixed
// order, so genText(stream, i, scale) differs between scales only in the
// loads.
type gen struct {
	r     *rand.Rand
	b     *strings.Builder // where p writes
	scale float64
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(g.b, format, args...) }

// long returns name, or one time in ten name lengthened to 40 to 64
// characters (the longest a name may be).
func (g *gen) long(name string) string {
	if !g.chance(0.1) {
		return name
	}
	const tail = "-eu-west-1-primary-read-replica-for-the-nightly-batch-v2.internal"
	return name + tail[:min(len(tail), g.between(40, 64)-len(name))]
}

// into returns what f writes through g.p.
func (g *gen) into(f func()) string {
	saved := g.b
	g.b = &strings.Builder{}
	f()
	s := g.b.String()
	g.b = saved
	return s
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// between is a uniform integer in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// dur is a duration log-uniform in [lo, hi], rounded to the microsecond.
func (g *gen) dur(lo, hi time.Duration) time.Duration {
	x := math.Exp(math.Log(float64(lo)) + g.r.Float64()*(math.Log(float64(hi))-math.Log(float64(lo))))
	return time.Duration(x).Round(time.Microsecond)
}

type genService struct {
	name  string
	cache bool
	ops   []string // named operations besides the default handler
	// capacity is roughly the requests per second the service serves.
	capacity float64
}

// genText draws a file from stream, named for i, with its client loads
// times scale.
func genText(stream uint64, i int, scale float64) string {
	g := &gen{r: rand.New(rand.NewPCG(genSeed, stream)), b: &strings.Builder{}, scale: scale}
	nSvc := g.between(1, 5)
	perm := g.r.Perm(len(genNames))
	svcs := make([]genService, nSvc)
	for k := range svcs {
		svcs[k].name = g.long(genNames[perm[k]])
		if g.chance(0.25) {
			for _, o := range g.r.Perm(len(genOps))[:g.between(1, 2)] {
				svcs[k].ops = append(svcs[k].ops, genOps[o])
			}
		}
	}
	duration := time.Duration(g.between(5, 30)) * time.Second

	g.p("schema = 1\n\n[experiment]\nname = \"gen%03d\"\nduration = \"%v\"\nseed = %d\n", i, duration, g.between(1, 1000))
	if g.chance(0.7) {
		g.p("interval = \"%v\"\n", g.dur(100*time.Millisecond, 2*time.Second).Round(time.Millisecond))
	}
	if g.chance(0.2) {
		g.p("propagate_deadlines = true\n")
	}
	if g.chance(0.2) {
		g.p("propagate_cancellation = true\n")
	}

	// Services first into a buffer: the clients' loads follow the entry
	// service's capacity.
	services := g.into(func() {
		for k := range svcs {
			g.service(svcs, k)
		}
	})

	var open []string
	for c, n := 0, g.between(1, 3); c < n; c++ {
		name := g.long(fmt.Sprintf("client%d", c))
		target := 0
		if nSvc > 1 && g.chance(0.2) {
			target = g.between(1, nSvc-1)
		}
		if g.client(name, svcs[target], duration) {
			open = append(open, name)
		}
	}
	g.b.WriteString(services)
	g.faults(svcs, open, duration)
	return g.b.String()
}

// client writes a [[client]] of target and says whether it is open-loop.
func (g *gen) client(name string, target genService, d time.Duration) bool {
	g.p("\n[[client]]\nname = %q\ntarget = %q\n", name, target.name)
	if len(target.ops) > 0 && g.chance(0.6) {
		g.p("operation = %q\n", target.ops[g.r.IntN(len(target.ops))])
	}
	load := target.capacity * (0.2 + 1.8*g.r.Float64()) * g.scale
	open := true
	switch g.r.IntN(4) {
	case 0, 1:
		g.p("rate = %.3f\n", max(load, 0.01))
	case 2:
		// a schedule: steps, a ramp, or a short burst on a base rate
		var pts []string
		t := time.Duration(0)
		for n := g.between(2, 4); n > 0; n-- {
			pts = append(pts, fmt.Sprintf(`{ at = "%v", rate = %.3f }`, t, load*(0.1+2*g.r.Float64())))
			t += g.dur(100*time.Millisecond, d/2).Round(time.Millisecond)
		}
		if g.chance(0.3) && t+time.Second < d { // a burst: 5-20 x the load for 50-500 ms
			burst := g.dur(50*time.Millisecond, 500*time.Millisecond).Round(time.Millisecond)
			at := t + time.Duration(g.r.Float64()*float64(max(d-t-burst, 0))).Round(time.Millisecond)
			pts = append(pts, fmt.Sprintf(`{ at = "%v", rate = %.3f }`, at, load*(5+15*g.r.Float64())),
				fmt.Sprintf(`{ at = "%v", rate = %.3f }`, at+burst, load*0.5))
		}
		g.p("schedule = [ %s ]\n", strings.Join(pts, ", "))
		if g.chance(0.5) {
			g.p("interpolate = \"linear\"\n")
		}
	default:
		open = false
		think := g.dur(time.Millisecond, time.Second)
		users := int(math.Round(load * think.Seconds()))
		if g.chance(0.3) { // more users than the target serves
			users *= 5
		}
		g.p("users = %d\nthink_time = %s\n", min(max(users, 1), 200), g.distMean(think))
	}
	if g.chance(0.3) {
		g.p("deadline = \"%v\"\n", g.dur(50*time.Millisecond, 3*time.Second).Round(time.Millisecond))
	}
	if g.chance(0.15) {
		g.p("priority = %q\n", []string{"critical", "normal", "background"}[g.r.IntN(3)])
	}
	g.policy()
	return open
}

// distMean is a distribution table of mean m.
func (g *gen) distMean(m time.Duration) string {
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf(`{ dist = "constant", mean = "%v" }`, m)
	case 1:
		return fmt.Sprintf(`{ dist = "exponential", mean = "%v" }`, m)
	}
	return fmt.Sprintf(`{ dist = "lognormal", mean = "%v", sigma = %.2f }`, m, 0.1+g.r.Float64())
}

// service writes svcs[k]'s [[service]]; it may call svcs[k+1:] only, so
// the call graph is acyclic.
func (g *gen) service(svcs []genService, k int) {
	s := &svcs[k]
	g.p("\n[[service]]\nname = %q\n", s.name)
	inst := 1
	if g.chance(0.5) {
		inst = g.between(1, 4)
		g.p("instances = %d\n", inst)
		if inst > 1 && g.chance(0.5) {
			g.p("balancer = %q\n", []string{"round_robin", "random", "least_outstanding", "power_of_two"}[g.r.IntN(4)])
		}
	}
	workers := g.between(1, 16)
	if g.chance(0.15) {
		g.p("mode = \"async\"\nmax_in_flight = %d\n", workers)
	} else {
		g.p("workers = %d\n", workers)
	}
	queue := g.between(0, 200)
	g.p("queue_capacity = %d\n", queue)
	if g.chance(0.1) {
		g.p("contention = %.3f\n", 0.05*g.r.Float64())
	}
	if g.chance(0.1) {
		g.p("codel = { target = \"%v\", interval = \"100ms\" }\n", g.dur(time.Millisecond, 50*time.Millisecond))
	} else if queue >= 1 && g.chance(0.1) {
		g.p("lifo = { discipline = %q }\n", []string{"adaptive", "fifo", "lifo"}[g.r.IntN(3)])
	}
	if g.chance(0.1) {
		g.p("shed = { normal = 0.8, background = 0.5, retry_after = \"%v\" }\n", g.dur(10*time.Millisecond, time.Second))
	}
	if g.chance(0.2) {
		g.p("cancellation = %q\n", []string{"at_step", "continuous"}[g.r.IntN(2)])
	}
	if g.chance(0.1) {
		g.p("limit = { algorithm = %q, initial = 20, min = 2, max = 100 }\n", []string{"aimd", "gradient2", "vegas"}[g.r.IntN(3)])
	}
	if g.chance(0.25) {
		g.p("readiness = { period = \"%v\", failure_threshold = %d, success_threshold = %d",
			time.Duration(g.between(1, 5))*time.Second, g.between(1, 3), g.between(1, 2))
		if k+1 < len(svcs) && g.chance(0.3) {
			g.p(", depends_on = [%q]", svcs[g.between(k+1, len(svcs)-1)].name)
		}
		g.p(" }\n")
	}
	if g.chance(0.2) {
		g.p("liveness = { period = \"%v\", timeout = \"%v\", failure_threshold = %d, restart_time = \"%v\" }\n",
			time.Duration(g.between(1, 5))*time.Second, g.dur(10*time.Millisecond, time.Second).Round(time.Millisecond),
			g.between(1, 3), g.dur(100*time.Millisecond, 5*time.Second).Round(time.Millisecond))
	}
	if g.chance(0.2) {
		g.p("outlier = { consecutive_5xx = %d, interval = \"%v\", base_ejection_time = \"%v\", max_ejection_percent = %d }\n",
			g.between(1, 10), time.Duration(g.between(1, 5))*time.Second, g.dur(500*time.Millisecond, 10*time.Second).Round(time.Millisecond),
			g.between(0, 100))
	}
	if g.chance(0.1) {
		s.cache = true
		g.p("cache = { hit_ratio = %.2f, keys = %d", g.r.Float64(), g.between(1, 10000))
		if g.chance(0.5) {
			g.p(", latency = %s", g.distMean(g.dur(50*time.Microsecond, 2*time.Millisecond)))
		}
		g.p(" }\n")
	}
	work := g.handler(svcs, k, "service", "")
	for _, op := range s.ops {
		g.p("  [[service.operation]]\n  name = %q\n", op)
		work = max(work, g.handler(svcs, k, "service.operation", "  "))
	}
	s.capacity = float64(inst*workers) / max(work.Seconds(), 1e-4)
}

// handler writes a handler (service_time, or steps calling later
// services) under the table prefix and returns its mean local work.
func (g *gen) handler(svcs []genService, k int, prefix, indent string) time.Duration {
	if k+1 == len(svcs) || g.chance(0.25) {
		m := g.dur(500*time.Microsecond, 20*time.Millisecond)
		g.p("%sservice_time = %s\n", indent, g.distMean(m))
		return m
	}
	var work time.Duration
	for n := g.between(1, 4); n > 0; n-- {
		switch g.r.IntN(3) {
		case 0:
			m := g.dur(200*time.Microsecond, 10*time.Millisecond)
			work += m
			g.p("%s  [[%s.step]]\n%s  work = %s\n", indent, prefix, indent, g.distMean(m))
		case 1:
			g.p("%s  [[%s.step]]\n", indent, prefix)
			g.p("%s", indentLines(g.call(svcs, k, "\n"), indent+"  "))
		default:
			var calls []string
			for c := g.between(2, 3); c > 0; c-- {
				calls = append(calls, "{ "+g.call(svcs, k, ", ")+" }")
			}
			g.p("%s  [[%s.step]]\n%s  parallel = [\n%s    %s,\n%s  ]\n", indent, prefix, indent, indent,
				strings.Join(calls, ",\n"+indent+"    "), indent)
		}
	}
	if work == 0 {
		m := g.dur(200*time.Microsecond, 5*time.Millisecond)
		work = m
		g.p("%s  [[%s.step]]\n%s  work = %s\n", indent, prefix, indent, g.distMean(m))
	}
	return work
}

func indentLines(s, indent string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return indent + strings.Join(lines, "\n"+indent) + "\n"
}

// call is the keys of one call from svcs[k] to a later service, each
// ended by sep.
func (g *gen) call(svcs []genService, k int, sep string) string {
	callee := svcs[k+1] // the next service half the time: most services are called
	if g.chance(0.5) {
		callee = svcs[g.between(k+1, len(svcs)-1)]
	}
	var kv []string
	kv = append(kv, fmt.Sprintf("call = %q", callee.name))
	if len(callee.ops) > 0 && g.chance(0.6) {
		kv = append(kv, fmt.Sprintf("operation = %q", callee.ops[g.r.IntN(len(callee.ops))]))
	}
	if g.chance(0.25) {
		kv = append(kv, "critical = false")
	}
	if g.chance(0.3) {
		kv = append(kv, fmt.Sprintf("probability = %.2f", 0.05+0.95*g.r.Float64()))
	}
	pol := g.into(g.policy)
	for _, l := range strings.Split(strings.TrimSuffix(pol, "\n"), "\n") {
		if l != "" {
			kv = append(kv, l)
		}
	}
	if sep == "\n" {
		return strings.Join(kv, "\n") + "\n"
	}
	return strings.Join(kv, ", ")
}

// policy writes a call policy's keys (timeout, retry, network, guards),
// each on its line, tables inline.
func (g *gen) policy() {
	if g.chance(0.6) {
		g.p("timeout = \"%v\"\n", g.dur(5*time.Millisecond, time.Second).Round(time.Millisecond))
	}
	hedged := false
	if g.chance(0.15) {
		hedged = true
		g.p("hedge = { attempts = %d, delay = %q", g.between(2, 5),
			[]string{"0s", g.dur(time.Millisecond, 50*time.Millisecond).Round(time.Millisecond).String(), "never"}[g.r.IntN(3)])
		if g.chance(0.3) {
			g.p(", non_fatal = [\"error\", \"timeout\"], on_per_try_timeout = true")
		}
		g.p(" }\n")
		if g.chance(0.3) {
			g.p("retry_budget = { ratio = %.2f, capacity = %d }\n", g.r.Float64(), g.between(1, 100))
		}
	} else if g.chance(0.5) {
		base := g.dur(time.Millisecond, 50*time.Millisecond)
		cp := base * time.Duration(g.between(1, 20))
		g.p("retry = { attempts = %d, backoff = %q, base = \"%v\", cap = \"%v\"", g.between(2, 4),
			[]string{"none", "constant", "exponential", "full_jitter", "equal_jitter", "decorrelated_jitter"}[g.r.IntN(6)], base, cp)
		if g.chance(0.3) {
			ons := []string{`"error"`, `"timeout"`, `"rejected"`}
			g.r.Shuffle(len(ons), func(a, b int) { ons[a], ons[b] = ons[b], ons[a] })
			g.p(", on = [%s]", strings.Join(ons[:g.between(1, 3)], ", "))
		}
		g.p(" }\n")
		if g.chance(0.3) {
			if g.chance(0.7) {
				g.p("retry_budget = { ratio = %.2f, capacity = %d, min_retries_per_second = %.1f }\n",
					g.r.Float64(), g.between(1, 100), 5*g.r.Float64())
			} else {
				g.p("retry_budget = { kind = \"concurrency\", budget_percent = %d, min_retry_concurrency = %d }\n",
					g.between(1, 100), g.between(0, 5))
			}
		}
	}
	if g.chance(0.3) {
		g.p("network = %s\n", g.distMean(g.dur(50*time.Microsecond, 5*time.Millisecond)))
	}
	if g.chance(0.2) {
		if g.chance(0.7) {
			g.p("bulkhead = { max_concurrent = %d, max_wait = \"%v\" }\n", g.between(1, 40),
				[]time.Duration{0, g.dur(time.Millisecond, 100*time.Millisecond)}[g.r.IntN(2)])
		} else {
			g.p("bulkhead = { kind = \"pool\", max_threads = %d, queue = %d }\n", g.between(1, 20), g.between(0, 50))
		}
	}
	placements := []string{"outside_retry", "inside_retry"}
	if hedged { // a hedged call's breaker guards the whole call
		placements = placements[:1]
	}
	if g.chance(0.25) {
		size := g.between(5, 100)
		g.p("breaker = { window = %q, window_size = %d, minimum_calls = %d, failure_rate = %d, half_open_calls = %d, open_pause = \"%v\", placement = %q",
			[]string{"count", "time"}[g.r.IntN(2)], size, g.between(1, size), g.between(10, 90), g.between(1, 5),
			g.dur(200*time.Millisecond, 5*time.Second).Round(time.Millisecond),
			placements[g.r.IntN(len(placements))])
		if g.chance(0.4) {
			g.p(", slow_call_rate = %d, slow_call_duration = \"%v\"", g.between(10, 100), g.dur(5*time.Millisecond, 500*time.Millisecond).Round(time.Millisecond))
		}
		g.p(" }\n")
	}
	if g.chance(0.2) {
		g.p("fallback = { level = %q", []string{"stale", "generic", "empty"}[g.r.IntN(3)])
		if g.chance(0.5) {
			g.p(", latency = %s", g.distMean(g.dur(100*time.Microsecond, 10*time.Millisecond)))
		}
		if g.chance(0.3) {
			g.p(", fail_rate = %.2f", g.r.Float64())
		}
		g.p(" }\n")
	}
}

// faults writes 0 to 3 [[fault]]s: latency, error, crash, freeze,
// workers, kill switches and cache flushes on services, load on
// open-loop clients.
func (g *gen) faults(svcs []genService, open []string, d time.Duration) {
	if g.chance(0.4) {
		return
	}
	for n := g.between(1, 3); n > 0; n-- {
		start := g.dur(500*time.Millisecond, d*9/10).Round(time.Millisecond)
		length := g.dur(200*time.Millisecond, d).Round(time.Millisecond)
		svc := svcs[g.r.IntN(len(svcs))]
		target := svc.name
		kind := g.r.IntN(8)
		if kind == 5 && len(open) == 0 || kind == 7 && !svc.cache {
			kind = 0
		}
		g.p("\n[[fault]]\n")
		switch kind {
		case 0:
			g.p("kind = \"latency\"\ntarget = %q\nmultiply = %.2f\n", target, 1+19*g.r.Float64())
		case 1:
			g.p("kind = \"error\"\ntarget = %q\nrate = %.2f\n", target, g.r.Float64())
		case 2:
			g.p("kind = \"crash\"\ntarget = %q\ninstances = %d\n", target, g.between(1, 4))
		case 3:
			g.p("kind = \"freeze\"\ntarget = %q\n", target)
			length = min(length, 2*time.Second)
		case 4:
			g.p("kind = \"workers\"\ntarget = %q\nworkers = %d\n", target, g.between(1, 16))
		case 5:
			g.p("kind = \"load\"\ntarget = %q\nmultiply = %.2f\n", open[g.r.IntN(len(open))], 5*g.r.Float64())
		case 6:
			g.p("kind = \"kill_switch\"\ntarget = %q\n", target)
		case 7:
			g.p("kind = \"cache_flush\"\ntarget = %q\nat = \"%v\"\n", target, start)
			continue
		}
		g.p("start = \"%v\"\nduration = \"%v\"\n", start, length)
	}
}
