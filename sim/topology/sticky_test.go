package topology

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/dist"
	"github.com/ressim/ressim/sim/policies/retry"
)

// stickyConfig is an open-loop client calling api, which calls db; the
// client's call to api and api's call to db make up to clientAttempts and
// dbAttempts attempts, at once (no backoff). Work is short and workers
// plenty, so nothing queues or times out: every failure is the fault's.
func stickyConfig(clientAttempts, dbAttempts int, f FaultConfig) Config {
	pol := func(n int) CallPolicy {
		r := retry.DefaultConfig()
		r.MaxAttempts, r.Backoff = n, retry.BackoffNone
		return CallPolicy{Retry: r}
	}
	work := dist.Must(dist.Params{Kind: dist.Constant, Mean: time.Millisecond})
	return Config{
		Name:     "sticky",
		Seed:     11,
		Duration: 21 * time.Second,
		Warmup:   time.Second,
		Clients:  []ClientConfig{{Name: "users", Target: "api", Rate: 1000, Call: pol(clientAttempts)}},
		Services: []ServiceConfig{
			{Name: "api", Workers: 1000, Steps: []Step{{Kind: WorkStep, Work: work}, {Kind: CallStep, Calls: []CallConfig{{Service: "db", Critical: true, Policy: pol(dbAttempts)}}}}},
			{Name: "db", Workers: 1000, Steps: []Step{{Kind: WorkStep, Work: work}}},
		},
		Faults: []FaultConfig{f},
	}
}

func errorFault(rate float64, sticky *StickyConfig) FaultConfig {
	return FaultConfig{Kind: ErrorFault, Target: "db", Instance: -1, Start: 0, End: time.Hour, Rate: rate, Sticky: sticky}
}

// realizedShare is the share of the fault's population (its users or
// keys) that it touches: the share the requests see, given the draw of
// the failing set.
func realizedShare(t *testing.T, m *Model) float64 {
	t.Helper()
	f := m.faults[0]
	if f.pop == 0 {
		return f.cfg.Sticky.Share // by request: no population to draw
	}
	n := 0
	for i := range f.pop {
		// The identity that maps to user (or key) i.
		var hit bool
		if f.cfg.Sticky.By == StickyByUser {
			hit = f.touches(uint32((i<<31+f.pop-1)/f.pop), 0)
		} else {
			hit = f.touches(0, uint32((i<<32+f.pop-1)/f.pop))
		}
		if hit {
			n++
		}
	}
	return float64(n) / float64(f.pop)
}

func runModel(t *testing.T, cfg Config) (*Model, *Result) {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil {
		t.Fatal(err)
	}
	return m, res
}

// siteResult is the call site from caller to callee.
func siteResult(t *testing.T, res *Result, caller, callee string) CallResult {
	t.Helper()
	for _, c := range res.Calls {
		if c.Caller == caller && c.Callee == callee {
			return c
		}
	}
	t.Fatalf("no call site %s -> %s", caller, callee)
	return CallResult{}
}

// within fails the test unless got is within k standard deviations sd of
// want.
func within(t *testing.T, what string, got, want, sd float64) {
	t.Helper()
	const k = 4.5 // two-sided: a false alarm about once in 150,000 runs
	if math.Abs(got-want) > k*sd+1e-12 {
		t.Errorf("%s = %.5f, want %.5f ± %.5f (%.1f sd)", what, got, want, k*sd, k)
	} else {
		t.Logf("%s = %.5f, want %.5f ± %.5f", what, got, want, k*sd)
	}
}

// TestStickyErrorRetriesAreWaste: with a sticky error fault of share s
// and rate 1, a request in the share fails at every attempt and one
// outside it never fails, so three attempts give a success ratio of 1 - s
// (whatever the retries) and cost 1 + 2s attempts per call: three on the
// failing share, one on the rest. The independent fault of the same
// overall rate s gives 1 - s^3 and 1 + s + s^2.
//
// The tolerance: each request is in the failing share with probability
// ŝ, the share of the population the fault's hash picked (computed
// exactly from the model, so the draw of the failing set adds no noise),
// independently of the others, so over N requests the success ratio has
// standard deviation sqrt(ŝ(1-ŝ)/N) and the attempts per call, 1 + 2B
// with B Bernoulli(ŝ), 2 sqrt(ŝ(1-ŝ)/N).
func TestStickyErrorRetriesAreWaste(t *testing.T) {
	const s = 0.2
	for _, c := range []struct {
		name   string
		sticky *StickyConfig
	}{
		{"request", &StickyConfig{By: StickyByRequest, Share: s}},
		{"key", &StickyConfig{By: StickyByKey, Share: s, Keys: 500}},
		{"user", &StickyConfig{By: StickyByUser, Share: s, Users: 300}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, res := runModel(t, stickyConfig(1, 3, errorFault(1, c.sticky)))
			sh := realizedShare(t, m)
			cl, call := res.Clients[0], siteResult(t, res, "api", "db")
			n := float64(cl.Sent)
			sd := math.Sqrt(sh * (1 - sh) / n)
			within(t, "success ratio", float64(cl.SentGood)/n, 1-sh, sd)
			within(t, "attempts per call", float64(call.Attempts)/float64(call.Calls), 1+2*sh, 2*sd)
			if cl.InFlightAtEnd > 5 || cl.Expired+cl.Rejected+cl.Dropped > 0 {
				t.Errorf("requests lost to something else than the fault: %+v", cl)
			}
		})
	}
	t.Run("independent", func(t *testing.T) {
		_, res := runModel(t, stickyConfig(1, 3, errorFault(s, nil)))
		cl, call := res.Clients[0], siteResult(t, res, "api", "db")
		n := float64(cl.Sent)
		p := s * s * s
		within(t, "success ratio", float64(cl.SentGood)/n, 1-p, math.Sqrt(p*(1-p)/n))
		// Attempts per call: 1 + B1 + B1 B2, variance below 4 s(1-s).
		within(t, "attempts per call", float64(call.Attempts)/float64(call.Calls), 1+s+s*s, 2*math.Sqrt(s*(1-s)/float64(call.Calls)))
	})
}

// TestStickyIdentityReachesDownstreamRetries: the fault is on db, two
// hops down, and both hops retry (three attempts each). A request in the
// failing share fails at all 3 x 3 attempts at db, so the client's success
// ratio is still 1 - s, and db sees 1 + 8s attempts per user request: the
// identity reached every downstream call and every retry at both levels.
// Were it lost on a retry, the retry would succeed with probability 1 - s.
func TestStickyIdentityReachesDownstreamRetries(t *testing.T) {
	const s = 0.1
	_, res := runModel(t, stickyConfig(3, 3, errorFault(1, &StickyConfig{By: StickyByRequest, Share: s})))
	cl, db := res.Clients[0], siteResult(t, res, "api", "db")
	api := siteResult(t, res, "client:users", "api")
	n := float64(cl.Sent)
	sd := math.Sqrt(s * (1 - s) / n)
	within(t, "success ratio", float64(cl.SentGood)/n, 1-s, sd)
	within(t, "api attempts per request", float64(api.Attempts)/float64(api.Calls), 1+2*s, 2*sd)
	within(t, "db attempts per request", float64(db.Attempts)/float64(api.Calls), 1+8*s, 8*sd)
}

// TestStickyDeterministic: the same seed picks the same failing set and
// gives the same run; another seed picks another set of about the same
// size.
func TestStickyDeterministic(t *testing.T) {
	f := errorFault(1, &StickyConfig{By: StickyByUser, Share: 0.3, Users: 2000})
	m1, r1 := runModel(t, stickyConfig(1, 3, f))
	m2, r2 := runModel(t, stickyConfig(1, 3, f))
	if c1, c2 := r1.Clients[0], r2.Clients[0]; c1.Sent != c2.Sent || c1.SentGood != c2.SentGood || c1.Errors != c2.Errors {
		t.Errorf("same seed, different runs: %+v vs %+v", r1.Clients[0], r2.Clients[0])
	}
	cfg := stickyConfig(1, 3, f)
	cfg.Seed++
	m3, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	same, differ, in := 0, 0, 0
	for u := range uint32(2000) {
		id := uint32((uint64(u)<<31 + 1999) / 2000)
		a, b, c := m1.faults[0].touches(id, 0), m2.faults[0].touches(id, 0), m3.faults[0].touches(id, 0)
		if a != b {
			t.Fatalf("user %d: in the failing set in one run and not the other with the same seed", u)
		}
		if a != c {
			differ++
		}
		if a {
			in++
		}
		same++
	}
	if differ == 0 {
		t.Error("another seed picked the same failing set")
	}
	// 2000 users at 0.3: 600 expected, sd 20.5.
	if in < 500 || in > 700 {
		t.Errorf("%d of %d users fail, want about 600", in, same)
	}
}

// TestStickyClosedLoopUsers: a closed-loop client's users are its own:
// each user fails at every request or at none, so with a long think
// time (all users send at about the same rate) the success ratio is the
// share of healthy users, and every failing request costs three attempts.
func TestStickyClosedLoopUsers(t *testing.T) {
	cfg := stickyConfig(1, 3, errorFault(1, &StickyConfig{By: StickyByUser, Share: 0.25}))
	cfg.Clients[0].Rate, cfg.Clients[0].Users = 0, 400
	cfg.Clients[0].ThinkTime = dist.Must(dist.Params{Kind: dist.Exponential, Mean: 100 * time.Millisecond})
	m, res := runModel(t, cfg)
	bad := 0
	for i := range uint32(400) {
		if m.faults[0].touches(closedUser|i, 0) {
			bad++
		}
	}
	sh := float64(bad) / 400
	cl := res.Clients[0]
	n := float64(cl.Sent)
	// Each user sends about n/400 requests, a Poisson count: the share of
	// the failing users' requests has sd about sqrt(sh(1-sh)/n).
	within(t, "success ratio", float64(cl.SentGood)/n, 1-sh, math.Sqrt(sh*(1-sh)/n))
	call := siteResult(t, res, "api", "db")
	if got := float64(call.Attempts) / float64(call.Calls); math.Abs(got-(1+2*sh)) > 0.02 {
		t.Errorf("attempts per call %.4f, want %.4f", got, 1+2*sh)
	}
}

// TestStickyLatency: a sticky latency fault slows only its share: the
// other requests keep the service time.
func TestStickyLatency(t *testing.T) {
	f := FaultConfig{Kind: LatencyFault, Target: "db", Instance: -1, End: time.Hour, Multiply: 1, Add: 50 * time.Millisecond,
		Sticky: &StickyConfig{By: StickyByRequest, Share: 0.1}}
	_, res := runModel(t, stickyConfig(1, 1, f))
	lat := res.Clients[0].Latency
	// 2 ms of work for the 90% untouched; 52 ms for the 10% touched.
	if q := lat.Quantile(0.8); q > int64(3*time.Millisecond) {
		t.Errorf("p80 latency %v: the untouched requests were slowed", time.Duration(q))
	}
	if q := lat.Quantile(0.95); q < int64(50*time.Millisecond) {
		t.Errorf("p95 latency %v: the touched share was not slowed", time.Duration(q))
	}
}

// TestStickyValidate: sticky is refused on other kinds and out of range.
func TestStickyValidate(t *testing.T) {
	for _, c := range []struct {
		f    FaultConfig
		want string
	}{
		{FaultConfig{Kind: CrashFault, Count: 1, Sticky: &StickyConfig{Share: 0.1}}, "error and latency faults only"},
		{errorFault(1, &StickyConfig{Share: 0}), "share must be in (0, 1]"},
		{errorFault(1, &StickyConfig{Share: 1.5}), "share must be in (0, 1]"},
		{errorFault(1, &StickyConfig{By: StickyByKey, Share: 0.1, Users: 5}), "users applies to by = user only"},
		{errorFault(1, &StickyConfig{By: StickyByUser, Share: 0.1, Keys: 5}), "keys applies to by = key only"},
		{errorFault(1, &StickyConfig{By: StickyByKey, Share: 0.1, Keys: MaxKeys + 1}), "keys must be"},
	} {
		c.f.Target, c.f.Instance, c.f.End = "db", -1, time.Hour
		_, err := New(stickyConfig(1, 1, c.f))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.f.Sticky, err, c.want)
		}
	}
}

// TestStickyDoesNotAllocate: identities, their copies and the membership
// test allocate nothing per request: a run four times as long allocates
// about as much, open loop and closed loop (whose think events carry the
// user's *uint32).
func TestStickyDoesNotAllocate(t *testing.T) {
	for _, closed := range []bool{false, true} {
		allocs := func(d time.Duration) float64 {
			cfg := stickyConfig(2, 3, errorFault(1, &StickyConfig{By: StickyByUser, Share: 0.3}))
			cfg.Faults = append(cfg.Faults, FaultConfig{Kind: LatencyFault, Target: "api", Instance: -1, End: time.Hour, Multiply: 2,
				Sticky: &StickyConfig{By: StickyByKey, Share: 0.5}})
			cfg.Duration, cfg.Warmup, cfg.Interval = d, 0, d/4
			if closed {
				cfg.Clients[0].Rate, cfg.Clients[0].Users = 0, 200
				cfg.Clients[0].ThinkTime = dist.Must(dist.Params{Kind: dist.Exponential, Mean: 100 * time.Millisecond})
			}
			return testing.AllocsPerRun(2, func() { runModel(t, cfg) })
		}
		short, long := allocs(5*time.Second), allocs(20*time.Second)
		if long > short*1.2+200 {
			t.Errorf("closed loop %v: %.0f allocations in 5 s, %.0f in 20 s: something allocates per request", closed, short, long)
		}
	}
}
