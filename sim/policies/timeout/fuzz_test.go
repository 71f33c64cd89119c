package timeout

import (
	"testing"
	"time"
)

// FuzzPolicy checks that the effective timeout is never negative, never
// above the configured one, never beyond the deadline, and that an attempt
// expires exactly at ExpiresAt.
func FuzzPolicy(f *testing.F) {
	f.Add(int64(300*ms), int64(0), int64(100*ms), int64(800*ms))
	f.Add(int64(1), int64(-1<<62), int64(5), int64(1<<62))
	f.Add(int64(1<<62), int64(1<<62), int64(1<<62), int64(0))
	f.Fuzz(func(t *testing.T, attempt, start, now, deadline int64) {
		p, err := New(Config{Attempt: time.Duration(attempt)})
		if err != nil {
			return
		}
		st, dl := time.Duration(start), time.Duration(deadline)
		e := p.Effective(st, dl)
		if e < 0 || e > p.Attempt() {
			t.Fatalf("Effective %v outside [0, %v]", e, p.Attempt())
		}
		exp := p.ExpiresAt(st, dl)
		if exp < st {
			t.Fatalf("ExpiresAt %v before start %v", exp, st)
		}
		if dl != 0 && exp > max(dl, st) {
			t.Fatalf("attempt started at %v expires at %v, after the deadline %v", st, exp, dl)
		}
		n := time.Duration(now)
		if p.Expired(st, n, dl) != (n >= exp) {
			t.Fatalf("Expired(%v) disagrees with ExpiresAt %v", n, exp)
		}
	})
}

// FuzzCheck builds arbitrary call graphs over a few names and compares
// Check with a direct reading of the rules: every reported violation must
// hold, and every broken pair must be reported, once.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{0, 1, 10, 1, 0, 1, 2, 20, 3, 5})
	f.Add([]byte{0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 1, 2, 3, 4, 5})
	names := []string{"a", "b", "c", "d"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var calls []Call
		for i := 0; i+4 < len(data) && len(calls) < 12; i += 5 {
			calls = append(calls, Call{
				Caller:   names[data[i]%4],
				Callee:   names[data[i+1]%4],
				Timeout:  time.Duration(data[i+2]) * 10 * ms, // 0 = missing
				Attempts: int(data[i+3] % 4),
				Backoff:  time.Duration(data[i+4]) * ms,
			})
		}
		vs, err := Check(calls)
		if err != nil {
			t.Fatal(err)
		}
		// The rules, read directly, in Check's documented order.
		var want []Violation
		for _, o := range calls {
			if o.Timeout <= 0 {
				want = append(want, Violation{Kind: Missing, Outer: o})
				continue
			}
			for _, in := range calls {
				if in.Caller != o.Callee || in.Timeout <= 0 {
					continue
				}
				worst := time.Duration(max(in.Attempts, 1))*in.Timeout + in.Backoff
				if o.Timeout <= in.Timeout {
					want = append(want, Violation{Kind: NotLonger, Outer: o, Inner: in})
				} else if o.Timeout <= worst {
					want = append(want, Violation{Kind: RetriesNotCovered, Outer: o, Inner: in})
				}
			}
		}
		if len(vs) != len(want) {
			t.Fatalf("Check found %d violations, the rules %d:\n%v\n%v", len(vs), len(want), vs, want)
		}
		for i := range vs {
			if vs[i] != want[i] {
				t.Fatalf("violation %d = %v, want %v", i, vs[i], want[i])
			}
		}
		// Determinism: the same input gives the same output.
		again, _ := Check(calls)
		for i := range again {
			if again[i] != vs[i] {
				t.Fatal("Check is not deterministic")
			}
		}
	})
}
