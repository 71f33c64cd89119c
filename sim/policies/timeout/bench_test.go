package timeout

import (
	"testing"
	"time"
)

func BenchmarkExpiresAt(b *testing.B) {
	p, _ := New(Config{Attempt: 300 * ms})
	b.ReportAllocs()
	var start time.Duration
	for b.Loop() {
		start = (start + 1) & 0x3fffffff
		p.ExpiresAt(start, 800*ms)
	}
}

// BenchmarkCheck measures the static check on a 3-level tree of 111 calls.
// It runs once per topology, not per request, and allocates its index and
// result.
func BenchmarkCheck(b *testing.B) {
	var calls []Call
	name := func(l, i int) string { return string(rune('a'+l)) + string(rune('a'+i%26)) + string(rune('a'+i/26)) }
	calls = append(calls, Call{Caller: "root", Callee: name(0, 0), Timeout: time.Second})
	for i := range 10 {
		calls = append(calls, Call{Caller: name(0, 0), Callee: name(1, i), Timeout: 500 * ms, Attempts: 2})
		for j := range 10 {
			calls = append(calls, Call{Caller: name(1, i), Callee: name(2, i*10+j), Timeout: 200 * ms, Attempts: 3})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check(calls); err != nil {
			b.Fatal(err)
		}
	}
}
