package budget

import (
	"errors"
	"math"
	"testing"
	"time"
)

func mustFinagle(t testing.TB, c FinagleConfig, now time.Duration) *Finagle {
	t.Helper()
	f, err := NewFinagle(c, now)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFinagleSteps drives Finagle's default budget (ttl 10 s,
// minRetriesPerSec 10, percentCanRetry 0.2) through its transitions. In
// Finagle's units a deposit is 1000, a withdrawal 1000/0.2 = 5000, and the
// reserve 10 x 10 s x 5000 = 500000: 100 retries. Deposits and
// withdrawals live in 10 slices of ttl/10 = 1 s; a slice starts at the
// first call at least 1 s after the previous slice started (Finagle's
// WindowedAdder), so a slice can outlive 10 s.
func TestFinagleSteps(t *testing.T) {
	f := mustFinagle(t, DefaultFinagleConfig(), 0)
	const (
		deposit  = "deposit"
		withdraw = "withdraw"
	)
	steps := []struct {
		at      time.Duration
		action  string
		n       int  // repetitions
		ok      bool // TryWithdraw's answer to the last repetition
		balance int64
	}{
		{0, withdraw, 100, true, 0},         // the reserve alone pays 100 retries
		{0, withdraw, 1, false, 0},          // count 0 < 5000
		{0, deposit, 4, false, 0},           // 4000 < 5000
		{500 * ms, deposit, 1, false, 1},    // 5000: one retry
		{500 * ms, withdraw, 1, true, 0},    // count 0 again
		{1 * s, deposit, 5, false, 1},       // a new slice at 1 s, +5000
		{9999 * ms, withdraw, 1, true, 0},   // new slice at 9.999 s; nothing expired
		{10 * s, withdraw, 1, false, 0},     // 1 ms later: the 0 s slice is still there
		{10999 * ms, withdraw, 1, true, 99}, // the 0 s slice (-500000) expired: 100, minus 1
		{20999 * ms, withdraw, 1, true, 99}, // everything before expired: the reserve alone
	}
	for i, st := range steps {
		var ok bool
		for range st.n {
			if st.action == deposit {
				f.Deposit(st.at)
			} else {
				ok = f.TryWithdraw(st.at)
			}
		}
		if ok != st.ok || f.Balance(st.at) != st.balance {
			t.Errorf("step %d (%s x%d at %v): ok %v balance %d, want %v %d",
				i, st.action, st.n, st.at, ok, f.Balance(st.at), st.ok, st.balance)
		}
	}
	want := FinagleStats{Deposits: 10, Allowed: 104, Denied: 2}
	if got := f.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

// TestFinagleFullOutage: 100 requests per second, evenly spaced from 0,
// for 60 s; every attempt fails and the retry policy would make up to 3
// attempts. Finagle deposits once per request (RetryFilter.apply) and
// withdraws once per retry, so an outage does not stop the deposits.
//
// Expected, in Finagle's units (deposit 1000, withdrawal 5000, reserve
// 500000): the slices are exactly the seconds [k, k+1), since a request
// falls on every whole second. In the first slice the reserve and the
// slice's own 100 deposits pay (500000 + 100 x 1000) / 5000 = 120
// retries; each of the next 9 slices pays for 100 x 1000 / 5000 = 20.
// When a slice expires 10 s later its net (100 x 1000 - 120 x 5000 =
// -500000 for a first slice, 0 for the others) leaves the sum, so the
// pattern 120, 20 x 9 repeats: 300 retries per 10 s, 1800 in 60 s, and
// (6000 + 1800) / 6000 = 1.3 attempts per request, that is
// 1 + percentCanRetry + minRetriesPerSec / (100 req/s).
//
// Bucket (deposit per success) in the same outage gets no deposits: its
// 100 tokens pay 2 retries for each of the first 50 requests, its full
// 1-token reserve one more at 0.5 s, and the reserve's refill of 1 token/s
// one each at 1.5 s, 2.5 s ... 59.5 s: 160 retries, (6000 + 160) / 6000 =
// 1.0267 attempts per request.
func TestFinagleFullOutage(t *testing.T) {
	f := mustFinagle(t, DefaultFinagleConfig(), 0)
	b := mustBucket(t, DefaultConfig())
	const rps, secs, maxAttempts = 100, 60, 3
	var fRetries, bRetries int
	perSlice := make([]int, secs)
	for i := range rps * secs {
		now := time.Duration(i) * time.Second / rps
		f.Deposit(now)
		for range maxAttempts - 1 {
			if !f.TryWithdraw(now) {
				break
			}
			fRetries++
			perSlice[now/time.Second]++
		}
		for range maxAttempts - 1 {
			if !b.TryRetry(now) {
				break
			}
			bRetries++
		}
	}
	for k, got := range perSlice {
		want := 20
		if k%10 == 0 {
			want = 120
		}
		if got != want {
			t.Fatalf("second %d: %d retries, want %d (all: %v)", k, got, want, perSlice)
		}
	}
	n := float64(rps * secs)
	if got := (n + float64(fRetries)) / n; math.Abs(got-1.3) > 1e-12 {
		t.Errorf("Finagle: %.4f attempts per request, want 1.3", got)
	}
	if got, want := (n+float64(bRetries))/n, (n+160)/n; got != want {
		t.Errorf("Bucket: %.4f attempts per request, want %.4f", got, want)
	}
}

func TestFinagleConfig(t *testing.T) {
	d := DefaultFinagleConfig()
	if d.TTL != 10*s || d.MinRetriesPerSec != 10 || d.PercentCanRetry != 0.2 {
		t.Errorf("DefaultFinagleConfig = %+v, want Finagle's RetryBudget() (10 s, 10, 0.2)", d)
	}
	bad := []FinagleConfig{
		{TTL: 999 * ms, MinRetriesPerSec: 10, PercentCanRetry: 0.2},
		{TTL: 61 * s, MinRetriesPerSec: 10, PercentCanRetry: 0.2},
		{TTL: 10 * s, MinRetriesPerSec: -1, PercentCanRetry: 0.2},
		{TTL: 10 * s, MinRetriesPerSec: MaxFinagleMinRetriesPerSec + 1, PercentCanRetry: 0.2},
		{TTL: 10 * s, MinRetriesPerSec: 10, PercentCanRetry: -0.1},
		{TTL: 10 * s, MinRetriesPerSec: 10, PercentCanRetry: 1e-7},
		{TTL: 10 * s, MinRetriesPerSec: 10, PercentCanRetry: 1000.5},
		{TTL: 10 * s, MinRetriesPerSec: 10, PercentCanRetry: math.NaN()},
	}
	for _, c := range bad {
		if _, err := NewFinagle(c, 0); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("NewFinagle(%+v) error = %v, want ErrInvalidConfig", c, err)
		}
	}
	// Finagle's Empty budget: no reserve and no percentage never allows.
	e := mustFinagle(t, FinagleConfig{TTL: 10 * s}, 0)
	e.Deposit(0)
	if e.TryWithdraw(0) || e.Balance(0) != 0 {
		t.Error("a budget with no reserve and no percentage allowed a retry")
	}
	// Reserve only: a retry costs 1 and deposits are worth nothing.
	r := mustFinagle(t, FinagleConfig{TTL: 1 * s, MinRetriesPerSec: 2}, 0)
	r.Deposit(0)
	for i, want := range []bool{true, true, false} {
		if got := r.TryWithdraw(0); got != want {
			t.Errorf("minRetriesPerSec 2 over a 1 s ttl: retry %d allowed %v, want %v", i, got, want)
		}
	}
}
