package importer

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/experiment"
)

// TestR4JBothBulkheads: an instance with a semaphore and a thread-pool
// bulkhead (resilience4j's Spring Boot demo, issue 24: refused with
// ressim's internal key names) imports its semaphore bulkhead, the one
// @Bulkhead uses by default, whichever section comes first, and warns at
// the thread-pool one.
func TestR4JBothBulkheads(t *testing.T) {
	semaphore := "resilience4j.bulkhead:\n  instances:\n    backendA:\n      maxConcurrentCalls: 10\n"
	pool := "resilience4j.thread-pool-bulkhead:\n  instances:\n    backendA:\n      maxThreadPoolSize: 4\n      queueCapacity: 2\n"
	// Spring Boot also writes the sections nested under one resilience4j
	// key; the pool section is read last there too.
	nested := "resilience4j:\n  thread-pool-bulkhead:\n    instances:\n      backendA:\n        maxThreadPoolSize: 4\n" +
		"  bulkhead:\n    instances:\n      backendA:\n        maxConcurrentCalls: 10\n"
	for name, src := range map[string]string{"semaphore first": semaphore + pool, "pool first": pool + semaphore, "nested, pool first": nested} {
		res, err := Import("resilience4j", []Source{{Name: "application.yml", Data: []byte(src)}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := experiment.Parse("gen.toml", []byte(res.TOML)); err != nil {
			t.Fatalf("%s: the import does not validate: %v\n%s", name, err, res.TOML)
		}
		if !strings.Contains(res.TOML, "max_concurrent = 10") || strings.Contains(res.TOML, "max_threads") || strings.Contains(res.TOML, `kind = "pool"`) {
			t.Errorf("%s: want the semaphore bulkhead only:\n%s", name, res.TOML)
		}
		var warned bool
		for _, w := range res.Warnings {
			warned = warned || strings.Contains(w.String(), "type = SEMAPHORE") && strings.Contains(w.String(), "thread-pool-bulkhead.instances.backendA")
		}
		if !warned {
			t.Errorf("%s: no warning at the thread-pool bulkhead: %v", name, res.Warnings)
		}
	}
}
