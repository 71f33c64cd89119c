package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/hedge"
	"github.com/ressim/ressim/sim/topology"
)

// importAndRun imports src, parses the generated experiment, runs it for
// two simulated seconds, and returns the first step's calls by callee,
// the result, and the import.
func importAndRun(t *testing.T, kind, name string, src []byte) (map[string]topology.CallPolicy, *topology.Result, *Result) {
	t.Helper()
	r, err := Import(kind, []Source{{name, src}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	e, err := experiment.Parse(name+".toml", []byte(r.TOML))
	if err != nil {
		t.Fatalf("%s: generated experiment invalid: %v\n%s", name, err, r.TOML)
	}
	pols := map[string]topology.CallPolicy{}
	for _, st := range e.Model.Services[0].Steps {
		for _, c := range st.Calls {
			pols[c.Service] = c.Policy
		}
	}
	cfg := e.Model
	cfg.Duration = 2 * time.Second
	m, err := topology.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run()
	if err != nil || res == nil {
		t.Fatalf("%s: run: %v", name, err)
	}
	return pols, res, r
}

// hedges is the number of hedges the run sent to callee.
func hedges(res *topology.Result, callee string) uint64 {
	var n uint64
	for _, c := range res.Calls {
		if c.Callee == callee {
			n += c.Hedges
		}
	}
	return n
}

// TestGRPCHedging: a hedgingPolicy is the call's hedge (gRFC A6):
// maxAttempts clamped to 5 with a warning, hedgingDelay, and
// nonFatalStatusCodes mapped as retryableStatusCodes are; the default
// delay is 0 (a warning); retryThrottling is the budget of hedging calls
// too; the experiment runs and hedges.
func TestGRPCHedging(t *testing.T) {
	src := `{"methodConfig": [
 {"name": [{"service": "a"}], "hedgingPolicy": {"maxAttempts": 7, "hedgingDelay": "0.005s", "nonFatalStatusCodes": ["UNAVAILABLE", 4]}},
 {"name": [{"service": "b"}], "hedging_policy": {"MaxAttempts": 2}}],
 "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`
	pols, res, r := importAndRun(t, "grpc", "h.json", []byte(src))
	want := hedge.Config{MaxAttempts: 5, Delay: 5 * time.Millisecond, InitialRequests: 1,
		NonFatal: hedge.NewOutcomeSet(policies.Error, policies.Timeout)}
	if got := pols["a"].Hedge; got != want {
		t.Errorf("a: hedge %+v, want %+v", got, want)
	}
	if got := pols["b"].Hedge; got.MaxAttempts != 2 || got.Delay != 0 || got.NonFatal != 0 {
		t.Errorf("b: hedge %+v, want 2 copies at once, every failure fatal", got)
	}
	for _, c := range []string{"a", "b"} {
		if pols[c].Retry.MaxAttempts > 1 || pols[c].Guards.Budget == nil {
			t.Errorf("%s: retry %+v, budget %v; want no retry and retryThrottling's budget", c, pols[c].Retry, pols[c].Guards.Budget)
		}
		if hedges(res, c) == 0 {
			t.Errorf("%s: no hedge sent in the run", c)
		}
	}
	for _, want := range []string{
		`hedge = { attempts = 5, delay = "5ms", non_fatal = ["error", "timeout"] } # h.json:2:31 methodConfig[0].hedgingPolicy`,
		`hedge = { attempts = 2, delay = "0s" } # h.json:3:31 methodConfig[1].hedgingPolicy`,
	} {
		if !strings.Contains(r.TOML, want) {
			t.Errorf("no %q in\n%s", want, r.TOML)
		}
	}
	warns := diagText(r.Warnings)
	for _, want := range []string{"h.json:2:49: methodConfig[0].hedgingPolicy.maxAttempts: gRPC clamps maxAttempts to 5: 7 imported as 5",
		"h.json:3:31: methodConfig[1].hedgingPolicy: no hedgingDelay: gRPC's default 0s sends all 2 copies"} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
}

func diagText(ds []Diag) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// TestRealGRPCHedgingConfig: grpc-java's hedging example
// (examples/src/main/resources/io/grpc/examples/hedging/hedging_service_config.json,
// kept outside the repository in ../shared/real-configs; skipped when it
// is absent) imports as hedging and runs.
func TestRealGRPCHedgingConfig(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "real-configs", "grpc-java-hedging_service_config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("real config not here: %v", err)
	}
	pols, res, r := importAndRun(t, "grpc", "grpc-java-hedging_service_config.json", data)
	p, ok := pols["helloworld.Greeter"]
	if !ok {
		t.Fatalf("no call to helloworld.Greeter:\n%s", r.TOML)
	}
	if p.Hedge.MaxAttempts != 3 || p.Hedge.Delay != time.Second || p.Hedge.NonFatal != 0 || p.Retry.MaxAttempts > 1 {
		t.Errorf("hedge %+v, retry %+v; want 3 copies 1s apart, every failure fatal, no retry", p.Hedge, p.Retry)
	}
	if b := p.Guards.Budget; b == nil {
		t.Errorf("retryThrottling not imported as the hedges' budget:\n%s", r.TOML)
	}
	if !strings.Contains(r.TOML, "operation = \"SayHello\"") {
		t.Errorf("method lost:\n%s", r.TOML)
	}
	if res.UserRequests == 0 {
		t.Errorf("the run sent no request")
	}
}

// TestEnvoyHedging: a route's hedge_policy is the call's hedge, its
// copies those of the route's retry_policy, whose retry table is then not
// written (a call hedges or retries: said in a comment); each setting
// names its source line; the experiment runs and hedges.
func TestEnvoyHedging(t *testing.T) {
	src := `virtual_hosts:
- routes:
  - route:
      cluster: a
      retry_policy:
        retry_on: 5xx,refused-stream
        num_retries: 2
        per_try_timeout: 0.005s
      hedge_policy: { hedge_on_per_try_timeout: true }
  - route:
      cluster: b
      hedge_policy:
        initial_requests: 2
        additional_request_chance: { numerator: 2500, denominator: TEN_THOUSAND }
  - route:
      cluster: c
      hedge_policy: { hedge_on_per_try_timeout: true }
      retry_policy: { retry_on: reset, num_retries: 9 }
  - route:
      cluster: d
      hedge_policy: { hedge_on_per_try_timeout: true }
      retry_policy: { retry_on: reset, num_retries: 9, per_try_timeout: 1s }
`
	pols, res, r := importAndRun(t, "envoy", "e.yaml", []byte(src))
	want := map[string]hedge.Config{
		"a": {MaxAttempts: 3, Delay: hedge.Never, InitialRequests: 1, OnPerTryTimeout: true,
			NonFatal: hedge.NewOutcomeSet(policies.Error, policies.Timeout, policies.Rejected)},
		"d": {MaxAttempts: 5, Delay: hedge.Never, InitialRequests: 1, OnPerTryTimeout: true, NonFatal: hedge.NewOutcomeSet(policies.Error)},
	}
	for c, w := range want {
		if got := pols[c].Hedge; got != w || pols[c].Retry.MaxAttempts > 1 {
			t.Errorf("%s: hedge %+v, retry %+v; want hedge %+v and no retry", c, got, pols[c].Retry, w)
		}
	}
	if p := pols["b"]; p.Hedge.MaxAttempts > 1 {
		t.Errorf("b (only fields Envoy does not implement): hedge %+v; want none", p.Hedge)
	}
	if p := pols["c"]; p.Hedge.MaxAttempts > 1 || p.Retry.MaxAttempts != 10 {
		t.Errorf("c (no per_try_timeout: Envoy never hedges): hedge %+v, retry %+v; want 10 attempts, no hedge", p.Hedge, p.Retry)
	}
	for _, c := range []string{"a"} {
		if hedges(res, c) == 0 {
			t.Errorf("%s: no hedge sent in the run", c)
		}
	}
	for _, w := range []string{
		"  # hedged, not retried: the retry_policy at e.yaml:5:7 gives the hedge its copies and non_fatal; a call hedges or retries, so no retry table",
		`hedge.attempts = 3 # e.yaml:5:7 routes[0].route.retry_policy`,
		`hedge.delay = "never" # e.yaml:9:7 routes[0].route.hedge_policy`,
		`hedge.non_fatal = ["error", "timeout", "rejected"] # e.yaml:5:7 routes[0].route.retry_policy`,
		`hedge.on_per_try_timeout = true # e.yaml:9:23 routes[0].route.hedge_policy.hedge_on_per_try_timeout`,
		`timeout = "5ms" # e.yaml:8:9 routes[0].route.retry_policy.per_try_timeout`,
		`hedge.attempts = 5 # e.yaml:22:7 routes[3].route.retry_policy`,
	} {
		if !strings.Contains(r.TOML, w) {
			t.Errorf("no %q in\n%s", w, r.TOML)
		}
	}
	warns := diagText(r.Warnings)
	for _, w := range []string{
		"e.yaml:5:7: routes[0].route.retry_policy: imported into the route's hedge (hedge_policy at 9:7), not as a retry table",
		"e.yaml:13:9: routes[1].route.hedge_policy.initial_requests: Envoy's API marks initial_requests not implemented (route_components.proto, HedgePolicy): Envoy sends one request; not imported",
		"e.yaml:14:9: routes[1].route.hedge_policy.additional_request_chance: Envoy's API marks additional_request_chance not implemented (route_components.proto, HedgePolicy): Envoy sends no extra request; not imported",
		"e.yaml:12:7: routes[1].route.hedge_policy: Envoy sends no hedged copy with these values",
		"e.yaml:17:23: routes[2].route.hedge_policy.hedge_on_per_try_timeout: no effect in Envoy: the retry_policy has no per_try_timeout",
		"e.yaml:22:7: routes[3].route.retry_policy: ressim's hedge sends at most 5 copies (gRPC's cap): 10 imported as 5",
	} {
		if !strings.Contains(warns, w) {
			t.Errorf("warnings lack %q:\n%s", w, warns)
		}
	}
}

// TestMergeHedgeReplacesRetry: merged onto a step that retries, an
// imported hedge replaces the retry (a call hedges or retries), which
// stays as a comment; the merged experiment runs.
func TestMergeHedgeReplacesRetry(t *testing.T) {
	src := `{"methodConfig": [{"name": [{"service": "ratings"}], "hedgingPolicy": {"maxAttempts": 2, "hedgingDelay": "0.02s"}}]}`
	r, err := Import("grpc", []Source{{"h.json", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMapping("ratings=reviews:ratings", "--map[1]")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Merge(r, "into.toml", readTestdata(t, "into-bookinfo.toml"), []Mapping{m})
	if err != nil {
		t.Fatal(err)
	}
	e, err := experiment.Parse("merged.toml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	p := e.Model.Services[1].Steps[0].Calls[0].Policy
	if p.Hedge.MaxAttempts != 2 || p.Hedge.Delay != 20*time.Millisecond || p.Retry.MaxAttempts > 1 {
		t.Errorf("hedge %+v, retry %+v; want the imported hedge and no retry", p.Hedge, p.Retry)
	}
	if !strings.Contains(out, `  # replaced by import: retry = { attempts = 2, backoff = "full_jitter",`) {
		t.Errorf("the replaced retry is not kept as a comment:\n%s", out)
	}
	mod, err := topology.New(e.Model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mod.Run(); err != nil {
		t.Fatal(err)
	}
}
