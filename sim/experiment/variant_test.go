package experiment

import (
	"strings"
	"testing"
	"time"
)

const withVariants = good + `
[[variant]]
name = "fast-db"
description = "db twice as fast"
set = { "service.db.service_time.mean" = "2ms", "client.users.rate" = 450, "experiment.propagate_deadlines" = true }

[[variant]]
name = "no-queue-limit"
unset = ["service.server.queue_capacity"]

[[variant]]
name = "retrying"
set = { "client.users.retry" = { attempts = 2, backoff = "none" }, "service.0.workers" = 12 }
`

func TestVariants(t *testing.T) {
	e, err := Parse("v.toml", []byte(withVariants))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Variants) != 3 {
		t.Fatalf("%d variants", len(e.Variants))
	}
	v0, v1, v2 := e.Variants[0], e.Variants[1], e.Variants[2]
	if v0.Name != "fast-db" || v0.Description != "db twice as fast" || v0.Model.Services[1].Steps[0].Work.Mean() != 2*time.Millisecond ||
		v0.Model.Clients[0].Rate != 450 || !v0.Model.PropagateDeadlines {
		t.Errorf("variant 0 = %+v", v0)
	}
	if v1.Model.Services[0].QueueCapacity != -1 {
		t.Errorf("unset queue_capacity: %d, want unbounded", v1.Model.Services[0].QueueCapacity)
	}
	if v2.Model.Clients[0].Call.Retry.MaxAttempts != 2 || v2.Model.Services[0].Workers != 12 {
		t.Errorf("variant 2 = %+v", v2.Model.Clients[0].Call.Retry)
	}
	// The base is untouched.
	if e.Model.Services[0].Workers != 10 || e.Model.Clients[0].Rate != 900 || e.Model.PropagateDeadlines {
		t.Error("a variant changed the base")
	}
}

func TestVariantErrors(t *testing.T) {
	tests := []struct{ variant, want string }{
		{`[[variant]]
name = "x"
set = { "service.nosuch.workers" = 3 }`, `override "service.nosuch.workers": service: no element named "nosuch"`},
		{`[[variant]]
name = "x"
set = { "service.server.workers" = 0 }`, `variant "x": service[0].workers: must be in [1, 1000000], got 0`},
		{`[[variant]]
name = "x"
set = { "service.server.wrokers" = 3 }`, `unknown key "wrokers"`},
		{`[[variant]]
name = "base"`, `variant "base" is declared twice`},
		{`[[variant]]
name = "x"
unset = ["client.users.nothing"]`, `unset "client.users.nothing": no "client.users.nothing" to remove`},
		{`[[variant]]
name = "x"
colour = 1`, `variant[0].colour: unknown key`},
	}
	for _, tt := range tests {
		_, err := Parse("v.toml", []byte(good+"\n"+tt.variant+"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant ...%s...", tt.variant, err, tt.want)
		}
		if err != nil && !strings.Contains(err.Error(), "v.toml:") {
			t.Errorf("error without a position: %v", err)
		}
	}
}
