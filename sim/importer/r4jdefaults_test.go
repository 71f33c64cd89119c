package importer

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestR4JDefaults: an instance that leaves a property out gets
// resilience4j's default, not ressim's (issue 24), one row per default
// of r4jDefaults; the breaker's open pause stays constant as
// resilience4j's does unless enableExponentialBackoff; a breaker and a
// retry are placed as the Spring Boot aspects run them, Retry outside by
// default, and as retryAspectOrder and circuitBreakerAspectOrder say.
func TestR4JDefaults(t *testing.T) {
	imp := func(src string) string {
		t.Helper()
		res, err := Import("resilience4j", []Source{{Name: "application.yml", Data: []byte(src)}})
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if _, err := experiment.Parse("gen.toml", []byte(res.TOML)); err != nil {
			t.Fatalf("invalid: %v\n%s", err, res.TOML)
		}
		return res.TOML
	}
	bare := func(sections ...string) string {
		var b strings.Builder
		for _, s := range sections {
			b.WriteString("resilience4j." + s + ":\n  instances:\n    backendA:\n      registerHealthIndicator: true\n")
		}
		return b.String()
	}
	for kind, ds := range r4jDefaults {
		got := imp(bare(kind))
		for _, d := range ds {
			want := d.key + " = " + d.value + " # application.yml:3:5 resilience4j." + kind + ".instances.backendA." + d.prop + "(default)"
			if !strings.Contains(got, want) {
				t.Errorf("%s: no %q in\n%s", kind, want, got)
			}
		}
	}
	if got := imp(bare("circuitbreaker")); !strings.Contains(got, `breaker.max_open_pause = "1m0s"`) {
		t.Errorf("the open pause is not held constant:\n%s", got)
	}
	exp := "resilience4j.circuitbreaker:\n  instances:\n    backendA:\n      enableExponentialBackoff: true\n      exponentialMaxWaitDurationInOpenState: 10m\n"
	if got := imp(exp); !strings.Contains(got, `breaker.max_open_pause = "10m0s"`) {
		t.Errorf("exponential: the pause does not grow to 10m:\n%s", got)
	}
	if got := imp(bare("circuitbreaker", "retry")); !strings.Contains(got, `breaker.placement = "inside_retry"`) {
		t.Errorf("default aspect order: the breaker is not inside the retry:\n%s", got)
	}
	orders := strings.Replace(bare("circuitbreaker"), "resilience4j.circuitbreaker:\n", "resilience4j.circuitbreaker:\n  circuitBreakerAspectOrder: 1\n", 1) +
		strings.Replace(bare("retry"), "resilience4j.retry:\n", "resilience4j.retry:\n  retryAspectOrder: 2\n", 1)
	if got := imp(orders); !strings.Contains(got, `breaker.placement = "outside_retry"`) {
		t.Errorf("circuitBreakerAspectOrder 1 < retryAspectOrder 2: the breaker is not outside:\n%s", got)
	}
	if got := imp(bare("circuitbreaker")); strings.Contains(got, "placement") {
		t.Errorf("a breaker without a retry has no placement:\n%s", got)
	}
}
