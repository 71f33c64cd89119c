package experiment

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/policies/budget"
)

// quotaSrc is a small experiment whose client carries the retry_budget
// table rb, on line 10.
func quotaSrc(rb string) string {
	return `schema = 1
[experiment]
name = "q"
duration = "5s"
[[client]]
name = "users"
target = "api"
rate = 10
retry = { attempts = 3 }
retry_budget = ` + rb + `
[[service]]
name = "api"
workers = 4
service_time = { dist = "constant", mean = "1ms" }
`
}

func TestRetryQuotaKinds(t *testing.T) {
	e, err := Parse("q.toml", []byte(quotaSrc(`{ kind = "aws_standard", capacity = 50, retry_cost = 2, timeout_cost = 7, success_refund = 0 }`)))
	if err != nil {
		t.Fatal(err)
	}
	g := e.Model.Clients[0].Call.Guards
	if g.AWSQuota == nil || *g.AWSQuota != (budget.AWSConfig{Capacity: 50, RetryCost: 2, TimeoutCost: 7, SuccessRefund: 0}) || g.Budget != nil {
		t.Errorf("aws_standard: %+v", g)
	}
	e, err = Parse("q.toml", []byte(quotaSrc(`{ kind = "aws_standard" }`)))
	if err != nil || *e.Model.Clients[0].Call.Guards.AWSQuota != budget.DefaultAWSConfig() {
		t.Errorf("aws_standard defaults: %v", err)
	}
	e, err = Parse("q.toml", []byte(quotaSrc(`{ kind = "per_call_tokens", earn_per_call = 0.2 }`)))
	if err != nil || *e.Model.Clients[0].Call.Guards.PerCallBudget != (budget.PerCallConfig{EarnPerCall: 0.2, Capacity: 5}) {
		t.Errorf("per_call_tokens: %v", err)
	}
	for earn, want := range map[string]budget.Earn{"": budget.EarnEverySuccess, `, earn = "every_success"`: budget.EarnEverySuccess,
		`, earn = "first_attempt"`: budget.EarnFirstAttempt} {
		e, err = Parse("q.toml", []byte(quotaSrc(`{ ratio = 0.1`+earn+` }`)))
		if err != nil || e.Model.Clients[0].Call.Guards.Budget.Earn != want {
			t.Errorf("earn %q: %v", earn, err)
		}
	}
}

// Each error names the file, line and column of the offending key.
func TestRetryQuotaErrors(t *testing.T) {
	for _, tt := range []struct{ rb, want string }{
		{`{ kind = "aws_standard", retry_cost = 0 }`, "bad.toml:10:41: client[0].retry_budget.retry_cost: must be in [1, 10^6]"},
		{`{ kind = "aws_standard", capacity = 2.5 }`, "bad.toml:10:41: client[0].retry_budget.capacity: expected an integer"},
		{`{ kind = "aws_standard", success_refund = -1 }`, "client[0].retry_budget.success_refund: must be in [0, 10^6]"},
		{`{ kind = "aws_standard", ratio = 0.1 }`, `client[0].retry_budget.ratio: unknown key "ratio"`},
		{`{ kind = "aws", capacity = 5 }`, `client[0].retry_budget.kind: unknown value "aws"`},
		{`{ kind = "per_call_tokens", earn_per_call = -0.1 }`, "client[0].retry_budget.earn_per_call: "},
		{`{ kind = "per_call_tokens", capacity = 0.5 }`, "client[0].retry_budget.capacity: must be in [1, 10^9]"},
		{`{ kind = "per_call_tokens", earn = "first_attempt" }`, `client[0].retry_budget.earn: unknown key "earn"`},
		{`{ earn = "first" }`, `bad.toml:10:18: client[0].retry_budget.earn: unknown value "first"`},
		{`{ earn = 1 }`, "client[0].retry_budget.earn: expected a string"},
	} {
		_, err := Parse("bad.toml", []byte(quotaSrc(tt.rb)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.rb, err, tt.want)
		}
	}
}
