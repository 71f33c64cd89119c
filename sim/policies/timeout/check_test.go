package timeout

import (
	"errors"
	"testing"
	"time"
)

// TestCheckChain checks chains, outermost first: the first case is rule 2
// of «Устойчивость: circuit breaker, retry, bulkhead, backpressure,
// деградация» ("Resilience: ..."), section 2 (a gateway waiting 1 s in front
// of a service that waits 3 s for its database); the others are ressim's.
func TestCheckChain(t *testing.T) {
	tests := []struct {
		name string
		hops []Hop
		want []string // Violation.String() of each violation, in order
	}{
		{
			name: "gateway waits 1s, service waits its database 3s",
			hops: []Hop{
				{Name: "gateway", Timeout: 1 * time.Second},
				{Name: "service", Timeout: 3 * time.Second},
				{Name: "db"},
			},
			want: []string{"gateway -> service: timeout 1s not longer than service -> db timeout 3s"},
		},
		{
			name: "decreasing timeouts, no retries",
			hops: []Hop{
				{Name: "client", Timeout: 2 * time.Second},
				{Name: "gateway", Timeout: 1 * time.Second},
				{Name: "service", Timeout: 500 * ms},
				{Name: "db"},
			},
		},
		{
			name: "gateway retries outlive the client",
			hops: []Hop{
				{Name: "client", Timeout: 1500 * ms},
				{Name: "gateway", Timeout: 500 * ms, Attempts: 3, Backoff: 150 * ms},
				{Name: "service"},
			},
			want: []string{"client -> gateway: timeout 1.5s does not cover gateway -> service retries 3*500ms + 150ms = 1.65s"},
		},
		{
			name: "client covers the retries",
			hops: []Hop{
				{Name: "client", Timeout: 1651 * ms},
				{Name: "gateway", Timeout: 500 * ms, Attempts: 3, Backoff: 150 * ms},
				{Name: "service"},
			},
		},
		{
			name: "equal timeouts and a missing one",
			hops: []Hop{
				{Name: "a", Timeout: 1 * time.Second},
				{Name: "b", Timeout: 1 * time.Second},
				{Name: "c"}, // c -> d has no timeout
				{Name: "d"},
			},
			want: []string{
				"a -> b: timeout 1s not longer than b -> c timeout 1s",
				"c -> d: no timeout",
			},
		},
		{name: "one hop", hops: []Hop{{Name: "x", Timeout: 1}}},
	}
	for _, tt := range tests {
		vs, err := CheckChain(tt.hops)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(vs) != len(tt.want) {
			t.Errorf("%s: %d violations %v, want %d", tt.name, len(vs), vs, len(tt.want))
			continue
		}
		for i, v := range vs {
			if v.String() != tt.want[i] {
				t.Errorf("%s: violation %d = %q, want %q", tt.name, i, v.String(), tt.want[i])
			}
		}
	}
}

// TestCheckGraph checks a fan-out graph: the order of violations follows
// the input, and each names both calls.
func TestCheckGraph(t *testing.T) {
	calls := []Call{
		{Caller: "checkout", Callee: "pricing", Timeout: 400 * ms},
		{Caller: "checkout", Callee: "recs", Timeout: 80 * ms},
		{Caller: "pricing", Callee: "db", Timeout: 100 * ms, Attempts: 3, Backoff: 150 * ms}, // 450 ms worst
		{Caller: "pricing", Callee: "cache", Timeout: 10 * ms},
		{Caller: "recs", Callee: "ml", Timeout: 5 * time.Second},
		{Caller: "recs", Callee: "store", Timeout: 0},
	}
	vs, err := Check(calls)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind                   Kind
		outerCallee, innerNext string
	}{
		{RetriesNotCovered, "pricing", "db"},
		{NotLonger, "recs", "ml"},
		{Missing, "store", ""},
	}
	if len(vs) != len(want) {
		t.Fatalf("violations %v, want %d", vs, len(want))
	}
	for i, w := range want {
		v := vs[i]
		if v.Kind != w.kind || v.Outer.Callee != w.outerCallee || v.Inner.Callee != w.innerNext {
			t.Errorf("violation %d = %v (%v), want %v %s -> %s", i, v, v.Kind, w.kind, w.outerCallee, w.innerNext)
		}
	}
}

func TestCheckInvalid(t *testing.T) {
	bad := [][]Call{
		{{Caller: "", Callee: "b", Timeout: 1}},
		{{Caller: "a", Callee: "", Timeout: 1}},
		{{Caller: "a", Callee: "b", Timeout: 1, Attempts: -1}},
		{{Caller: "a", Callee: "b", Timeout: 1, Backoff: -1}},
	}
	for _, calls := range bad {
		if vs, err := Check(calls); !errors.Is(err, ErrInvalidConfig) || vs != nil {
			t.Errorf("Check(%+v) = %v, %v; want ErrInvalidConfig", calls, vs, err)
		}
	}
	if vs, err := Check(nil); err != nil || len(vs) != 0 {
		t.Errorf("Check(nil) = %v, %v", vs, err)
	}
}

func TestCallWorstCase(t *testing.T) {
	tests := []struct {
		c    Call
		want time.Duration
	}{
		{Call{Timeout: 100 * ms}, 100 * ms},
		{Call{Timeout: 100 * ms, Attempts: 3, Backoff: 6 * time.Second}, 6300 * ms}, // k*T + k*cap
		{Call{Timeout: 0}, Forever},
		{Call{Timeout: Forever / 2, Attempts: 3}, Forever},
		{Call{Timeout: Forever / 2, Attempts: 2, Backoff: 10}, Forever},
	}
	for _, tt := range tests {
		if got := tt.c.WorstCase(); got != tt.want {
			t.Errorf("%+v.WorstCase() = %v, want %v", tt.c, got, tt.want)
		}
	}
	if Missing.String() != "missing" || RetriesNotCovered.String() != "retries_not_covered" || Kind(9).String() != "Kind(9)" {
		t.Error("kind names changed")
	}
}
