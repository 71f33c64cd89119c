package importer

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/topology"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func importFile(t *testing.T, kind, name string) *Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Import(kind, []Source{{"testdata/" + name, data}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// TestImportValidateRun: each documented example imports, the generated
// experiment validates, runs (shortened to 2 s), and matches its golden
// file together with the warnings.
func TestImportValidateRun(t *testing.T) {
	for _, c := range [][2]string{{"grpc", "grpc-retry.json"}, {"grpc", "grpc-timeout.json"}, {"grpc", "grpc-hedging.json"}, {"resilience4j", "resilience4j.yml"},
		{"envoy", "envoy.yaml"}, {"envoy", "envoy-hedging.yaml"},
		{"istio", "istio-circuit-breaking.yaml"}, {"istio", "istio-reference.yaml"}, {"istio", "istio-bookinfo.yaml"}} {
		name := c[1]
		r := importFile(t, c[0], name)
		e, err := experiment.Parse(name+".toml", []byte(r.TOML))
		if err != nil {
			t.Fatalf("%s: generated experiment invalid: %v\n%s", name, err, r.TOML)
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
		var b bytes.Buffer
		b.WriteString(r.TOML)
		b.WriteString("\n# warnings:\n")
		for _, w := range r.Warnings {
			b.WriteString("# " + w.String() + "\n")
		}
		golden(t, filepath.Join("testdata", "golden", name+".toml"), b.Bytes())
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run go test ./sim/importer -update and review the diff", path)
	}
}

// TestGRPCMapping checks the mapped values against gRFC A6's semantics.
func TestGRPCMapping(t *testing.T) {
	r := importFile(t, "grpc", "grpc-retry.json")
	for _, want := range []string{
		`call = "grpc.examples.echo.Echo" # testdata/grpc-retry.json:4:16 methodConfig[0].name[0]`,
		`timeout = "1s" # testdata/grpc-retry.json:5:7 methodConfig[0].timeout`,
		`retry = { attempts = 4, backoff = "full_jitter", base = "100ms", cap = "1s", on = ["error"] }`,
		`retry_budget = { ratio = 0.1, capacity = 5, min_retries_per_second = 0 }`,
	} {
		if !strings.Contains(r.TOML, want) {
			t.Errorf("generated experiment lacks %q:\n%s", want, r.TOML)
		}
	}
	r = importFile(t, "grpc", "grpc-timeout.json")
	if !strings.Contains(r.TOML, `timeout = "1.000000001s"`) {
		t.Errorf("nanosecond timeout lost:\n%s", r.TOML)
	}
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0].String(), "loadBalancingConfig: not modelled") {
		t.Errorf("warnings %v, want loadBalancingConfig not modelled", r.Warnings)
	}
}

// TestGRPCErrors: unsupported or invalid values are errors with their
// source position; nothing is generated.
func TestGRPCErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		// gRPC refuses a method config with both policies; so does the import.
		{`{"methodConfig": [{"name": [{"service": "a"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "1s", "maxBackoff": "2s", "retryableStatusCodes": [14]}, "hedgingPolicy": {"maxAttempts": 3}}]}`,
			"x.json:1:157: methodConfig[0].hedgingPolicy: a method config has a retryPolicy or a hedgingPolicy, not both (gRFC A6; gRPC refuses the service config): the other is at x.json:1:48"},
		{`{"methodConfig": [{"name": [{"service": "a"}], "hedgingPolicy": {"hedgingDelay": "1s"}}]}`, "x.json:1:48: methodConfig[0].hedgingPolicy: a hedgingPolicy needs maxAttempts > 1"},
		{`{"methodConfig": [{"name": [{"service": "a"}], "hedgingPolicy": {"maxAttempts": 2, "hedgingDelay": "-1s"}}]}`, "x.json:1:84: methodConfig[0].hedgingPolicy.hedgingDelay: duration \"-1s\" must be a non-negative number"},
		{`{"methodConfig": [{"name": [{"service": "a"}], "hedgingPolicy": {"maxAttempts": 2, "nonFatalStatusCodes": ["OK"]}}]}`, "x.json:1:108: methodConfig[0].hedgingPolicy.nonFatalStatusCodes[0]: OK is not a failure and cannot be non-fatal"},
		{`{"methodConfig": [{"name": [{"service": "a"}], "timeout": "1m"}]}`, "x.json:1:48: methodConfig[0].timeout: want a protobuf JSON duration"},
		{"{\"methodConfig\": [{\"name\": [{\"service\": \"a\"}],\n \"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"1s\", \"maxBackoff\": \"2s\", \"retryableStatusCodes\": [\"NOPE\"]}}]}", "x.json:2:105: methodConfig[0].retryPolicy.retryableStatusCodes[0]: unknown gRPC status code"},
		{`{"methodConfig": [{"name": [{"service": "a b"}]}]}`, `service "a b" is not a valid`},
		{`{"retryThrottling": {"maxTokens": 0, "tokenRatio": 0.1}}`, "x.json:1:22: retryThrottling.maxTokens: must be a number in (0, 1000]"},
	}
	for _, c := range cases {
		_, err := Import("grpc", []Source{{"x.json", []byte(c.src)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}

// FuzzImportGRPC: see fuzzImport.
func FuzzImportGRPC(f *testing.F) {
	fuzzImport(f, "grpc", "f.json", "grpc-retry.json", "grpc-timeout.json", "grpc-hedging.json")
}

// TestResilience4jErrors: a bad value or a missing base config is an
// error at its position.
func TestResilience4jErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"resilience4j.retry:\n  instances:\n    a:\n      waitDuration: soon\n", "x.yml:4:7: resilience4j.retry.instances.a.waitDuration: value \"soon\""},
		{"resilience4j:\n  circuitbreaker:\n    instances:\n      a:\n        baseConfig: nope\n", "x.yml:5:21: resilience4j.circuitbreaker.instances.a.baseConfig: no config named \"nope\""},
		{"resilience4j.circuitbreaker:\n  instances:\n    a:\n      slidingWindowType: SOMETIMES\n", "want COUNT_BASED or TIME_BASED"},
		// Found by FuzzImportResilience4j: a value ressim's range check
		// refuses is an error at the source, not an invalid experiment.
		{"resilience4j.circuitbreaker:\n  configs:\n    default:\n      slidingWindowSize: 0\n  instances:\n   00:", "x.yml:4:7: resilience4j.circuitbreaker.configs.default.slidingWindowSize: not accepted by ressim: must be in [1, 2^20]"},
	}
	for _, c := range cases {
		_, err := Import("resilience4j", []Source{{"x.yml", []byte(c.src)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestSpringDuration: Spring Boot's duration forms.
func TestSpringDuration(t *testing.T) {
	cases := map[string]time.Duration{"100": 100 * time.Millisecond, "500ms": 500 * time.Millisecond,
		"5s": 5 * time.Second, "PT1.5S": 1500 * time.Millisecond, "2d": 48 * time.Hour}
	for in, want := range cases {
		if got, err := springDuration(in); err != nil || got != want {
			t.Errorf("springDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "-1s", "101d"} {
		if _, err := springDuration(bad); err == nil {
			t.Errorf("springDuration(%q) accepted", bad)
		}
	}
}

// FuzzImportResilience4j: see fuzzImport.
func FuzzImportResilience4j(f *testing.F) {
	fuzzImport(f, "resilience4j", "f.yml", "resilience4j.yml")
}

// TestEnvoyErrors: unsupported Envoy values are errors at their position.
func TestEnvoyErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"clusters:\n- name: a\n  circuit_breakers:\n    thresholds:\n    - max_requests: -1\n", "x.yaml:5:7: clusters[0].circuit_breakers.thresholds[0].max_requests: want an integer"},
		{"virtual_hosts:\n- routes:\n  - route:\n      cluster: a\n      hedge_policy: {initial_requests: 0}\n", "x.yaml:5:22: routes[0].route.hedge_policy.initial_requests: want an integer >= 1"},
		{"virtual_hosts:\n- routes:\n  - route:\n      cluster: a\n      hedge_policy:\n        additional_request_chance: {numerator: 5, denominator: THOUSAND}\n",
			"x.yaml:6:51: routes[0].route.hedge_policy.additional_request_chance.denominator: want HUNDRED, TEN_THOUSAND or MILLION"},
		{"virtual_hosts:\n- routes:\n  - route:\n      cluster: a\n      hedge_policy: {hedge_on_per_try_timeout: yes}\n", "x.yaml:5:22: routes[0].route.hedge_policy.hedge_on_per_try_timeout: want true or false"},
		{"virtual_hosts:\n- routes:\n  - route:\n      cluster: a\n      retry_policy: { retry_on: retriable-4xx }\n", "retry_on names no condition ressim models"},
		// Found by FuzzImportEnvoy: "." passed the name pattern but is not a
		// service name ressim accepts; "caller" would clash with the skeleton.
		{"clusters:\n- name: .\n", `x.yaml:2:3: clusters[0]: cluster "." is not a valid ressim service name`},
		{"clusters:\n- name: caller\n", `cluster "caller" is not a valid ressim service name`},
	}
	for _, c := range cases {
		_, err := Import("envoy", []Source{{"x.yaml", []byte(c.src)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestIstioErrors: unsupported Istio values are errors at their position
// (line:col of the document within a multi-document file).
func TestIstioErrors(t *testing.T) {
	const dr = "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nspec:\n  host: a\n  trafficPolicy:\n"
	cases := []struct{ src, want string }{
		{dr + "    loadBalancer: { simple: PASSTHROUGH }\n", "x.yaml:6:21: DestinationRule.spec.trafficPolicy.loadBalancer.simple: \"PASSTHROUGH\""},
		{dr + "    outlierDetection:\n      interval: soon\n", "x.yaml:7:7: DestinationRule.spec.trafficPolicy.outlierDetection.interval: want a duration"},
		{dr + "    connectionPool:\n      http: { http2MaxRequests: -3 }\n", "x.yaml:7:15: DestinationRule.spec.trafficPolicy.connectionPool.http.http2MaxRequests: want an integer"},
		{"---\n" + dr + "    outlierDetection: { maxEjectionPercent: 101 }\n", "x.yaml:7:25: DestinationRule.spec.trafficPolicy.outlierDetection.maxEjectionPercent: a percentage is at most 100"},
		{"kind: VirtualService\napiVersion: networking.istio.io/v1beta1\nspec:\n  http:\n  - route: [{destination: {host: a}}]\n    retries: { attempts: 2, retryOn: retriable-4xx }\n", "x.yaml:6:29: VirtualService.spec.http[0].retries.retryOn: retryOn names no condition"},
		{"kind: VirtualService\napiVersion: networking.istio.io/v1\nspec:\n  http:\n  - route: [{destination: {host: \"*.example.com\"}}]\n", `x.yaml:5:34: VirtualService.spec.http[0].route[0].destination.host: host "*.example.com" is not a valid`},
		{"kind: DestinationRule\napiVersion: networking.istio.io/v1\nspec: {}\n", "x.yaml:3:7: DestinationRule.spec: a DestinationRule needs a host"},
	}
	for _, c := range cases {
		_, err := Import("istio", []Source{{"x.yaml", []byte(c.src)}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestIstioMapping: a second document's settings carry their own lines;
// a retry budget maps exactly; other kinds and unknown fields are warned.
func TestIstioMapping(t *testing.T) {
	src := "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\n" +
		"apiVersion: networking.istio.io/v1\nkind: DestinationRule\nspec:\n  host: a\n  trafficPolicy:\n" +
		"    retryBudget: { percent: 25, minRetryConcurrency: 5 }\n    bogus: 1\n" +
		"    connectionPool: { http: { maxRetries: 4 } }\n"
	r, err := Import("istio", []Source{{"x.yaml", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`retry_budget.kind = "concurrency" # x.yaml:10:5 DestinationRule.spec.trafficPolicy.retryBudget`,
		`retry_budget.budget_percent = 25 # x.yaml:10:20`,
		`retry_budget.min_retry_concurrency = 5 # x.yaml:10:33`,
	} {
		if !strings.Contains(r.TOML, want) {
			t.Errorf("generated experiment lacks %q:\n%s", want, r.TOML)
		}
	}
	var ws []string
	for _, w := range r.Warnings {
		ws = append(ws, w.String())
	}
	got := strings.Join(ws, "\n")
	for _, want := range []string{"x.yaml:1:1: [0]: v1 Service is not a DestinationRule",
		"x.yaml:11:5: DestinationRule.spec.trafficPolicy.bogus: not a trafficPolicy field"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(r.TOML, "min_retry_concurrency = 4") {
		t.Errorf("maxRetries overrode the retry budget:\n%s", r.TOML)
	}
}

// fuzzImport is the property every importer's fuzz target checks: no
// input panics, an input is refused only for its own faults (never as a
// bug of the importer), and a successful import always validates as an
// experiment.
func fuzzImport(f *testing.F, kind, name string, seeds ...string) {
	for _, n := range seeds {
		if b, err := os.ReadFile(filepath.Join("testdata", n)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Import(kind, []Source{{name, data}})
		if errors.Is(err, errImportBug) {
			t.Fatal(err)
		}
		if err != nil {
			return
		}
		if _, err := experiment.Parse("f.toml", []byte(r.TOML)); err != nil {
			t.Fatalf("generated experiment invalid: %v\n%s", err, r.TOML)
		}
	})
}

// FuzzImportEnvoy: see fuzzImport.
func FuzzImportEnvoy(f *testing.F) {
	fuzzImport(f, "envoy", "f.yaml", "envoy.yaml", "envoy-hedging.yaml")
}

// FuzzImportIstio: see fuzzImport.
func FuzzImportIstio(f *testing.F) {
	fuzzImport(f, "istio", "f.yaml", "istio-circuit-breaking.yaml", "istio-reference.yaml", "istio-bookinfo.yaml")
}

// TestIstioTwoRulesOneHost: two DestinationRules for one host (and the
// deprecated consecutiveErrors next to consecutive5xxErrors) give one
// value per key, the later one, not a duplicate key.
func TestIstioTwoRulesOneHost(t *testing.T) {
	dr := "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nspec:\n  host: a\n  trafficPolicy:\n" +
		"    loadBalancer: { simple: %s }\n    outlierDetection: { consecutiveErrors: 3, consecutive5xxErrors: %d }\n"
	src := fmt.Sprintf(dr, "RANDOM", 4) + "---\n" + fmt.Sprintf(dr, "ROUND_ROBIN", 6)
	r, err := Import("istio", []Source{{"x.yaml", []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.TOML, `balancer = "round_robin" # x.yaml:14:21`) || !strings.Contains(r.TOML, "outlier.consecutive_5xx = 6 # x.yaml:15:47") {
		t.Errorf("want the second rule's values:\n%s", r.TOML)
	}
}
