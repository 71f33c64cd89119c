package budget

import (
	"errors"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
)

// The step tables below follow their sources' numbers.
//
// AWS: the AWS SDK for Go v2, github.com/aws/aws-sdk-go-v2,
// aws/retry/standard.go at commit 1489ddb225dc3ff0d1dd273779b2115acb58f71b
// (the four defaults; GetAttemptToken, GetRetryToken, releaseToken),
// aws/ratelimit/token_bucket.go and token_rate_limit.go at commit
// 843b02ad6f819c6152f467ce07dd456d971eca23 (Retrieve refuses when fewer
// tokens than the cost are left; Refund caps at the initial capacity), and
// aws/retry/middleware.go's handleAttempt (each attempt's token is
// released after the retry token: a successful retry refunds its cost and
// NoRetryIncrement).
//
// Brooker: github.com/mbrooker/simulator_example, retry_sim/retry_strategy.py
// at commit 7aa858b9e5d84c96372dda664ab6994057b5e7b6 (AdaptiveRetryStrategy:
// start() earns bucket_fill_rate up to bucket_size; should_retry() needs
// bucket > 1.0 and takes 1.0).

type qstep struct {
	op     string // "call", "fail:<outcome>", "ok1" (first attempt), "okr" (retry)
	ok     bool   // Withdraw's answer, for "fail"
	tokens float64
}

// runSteps drives q through steps, remembering the receipt of the last
// retry allowed as a caller does.
func runSteps(t *testing.T, q Quota, steps []qstep) {
	t.Helper()
	var paid Receipt
	for i, st := range steps {
		now := time.Duration(i) * time.Millisecond
		switch st.op {
		case "call":
			q.CallStarted(now)
		case "ok1":
			q.Deposit(now, false, NoReceipt)
		case "okr":
			q.Deposit(now, true, paid)
		case "fail:error", "fail:timeout", "hedge":
			o := policies.Error
			switch st.op {
			case "fail:timeout":
				o = policies.Timeout
			case "hedge":
				o = policies.Success
			}
			ok, r := q.Withdraw(now, o)
			if ok != st.ok {
				t.Fatalf("step %d (%s): Withdraw = %v, want %v", i, st.op, ok, st.ok)
			}
			if ok {
				paid = r
			}
		default:
			t.Fatalf("step %d: unknown op %q", i, st.op)
		}
		if got := q.Tokens(); got != st.tokens {
			t.Fatalf("step %d (%s): tokens %v, want %v", i, st.op, got, st.tokens)
		}
	}
}

// TestAWSSteps: the SDK's numbers. 500 to start; a timeout's retry takes
// 10, its success gives back 10 + 1 (capped at 500); an error's retry
// takes 5; a first attempt's success adds 1, capped.
func TestAWSSteps(t *testing.T) {
	q, err := NewAWS(DefaultAWSConfig())
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, q, []qstep{
		{"ok1", false, 500},         // full: the refund is capped
		{"fail:timeout", true, 490}, // timeout cost 10
		{"okr", false, 500},         // 490 + 10 + 1, capped at 500
		{"fail:error", true, 495},   // retry cost 5
		{"fail:error", true, 490},   // the retry failed too: nothing back
		{"okr", false, 496},         // 490 + 5 + 1
		{"fail:timeout", true, 486},
		{"fail:error", true, 481},
		{"ok1", false, 482},  // another call's first attempt: +1
		{"hedge", true, 477}, // a hedge pays the retry cost
		{"okr", false, 483},  // 477 + 5 + 1
	})
	want := AWSStats{Successes: 5, Refunds: 3, Allowed: 6}
	if got := q.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

// TestAWSExhaustion: with 12 tokens, a timeout's retry (10) leaves 2,
// which pays for no retry of either cost; a first-attempt success adds
// 1 a time, and 5 pays again. A cost equal to the tokens left is
// allowed (Retrieve refuses only below 0).
func TestAWSExhaustion(t *testing.T) {
	q, err := NewAWS(AWSConfig{Capacity: 12, RetryCost: 5, TimeoutCost: 10, SuccessRefund: 1})
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, q, []qstep{
		{"fail:timeout", true, 2},
		{"fail:error", false, 2},
		{"fail:timeout", false, 2},
		{"ok1", false, 3},
		{"ok1", false, 4},
		{"fail:error", false, 4},
		{"ok1", false, 5},
		{"fail:error", true, 0}, // exactly the cost
		{"fail:error", false, 0},
		{"okr", false, 6}, // 0 + 5 + 1
	})
	if st := q.Stats(); st.Denied != 4 || st.Allowed != 2 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestPerCallSteps: Brooker's bucket of 5 earning 0.1 per call. The
// strict bucket > 1.0 test lets 4 retries out of 5 tokens; ten calls
// earn exactly one token (the sum is exact in millionths), which is not
// more than one; the eleventh makes 1.1, which pays.
func TestPerCallSteps(t *testing.T) {
	q, err := NewPerCall(DefaultPerCallConfig())
	if err != nil {
		t.Fatal(err)
	}
	steps := []qstep{
		{"call", false, 5}, // capped
		{"fail:error", true, 4},
		{"fail:timeout", true, 3}, // one token whatever the failure
		{"hedge", true, 2},
		{"okr", false, 2}, // successes earn nothing
		{"ok1", false, 2},
		{"fail:error", true, 1},
		{"fail:error", false, 1}, // 1 is not more than 1
	}
	lvl := 1.0
	for range 10 {
		lvl += 0.1
		steps = append(steps, qstep{"call", false, float64(micro(lvl)) / scale})
	}
	steps = append(steps,
		qstep{"fail:error", true, 1},
		qstep{"call", false, 1.1},
		qstep{"fail:error", true, 0.1},
		qstep{"fail:error", false, 0.1},
	)
	runSteps(t, q, steps)
	if st := q.Stats(); st.Allowed != 6 || st.Denied != 2 || st.Successes != 2 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestBucketEarn: with EarnFirstAttempt only first attempts deposit
// through Deposit; with the default every success does.
func TestBucketEarn(t *testing.T) {
	for _, tc := range []struct {
		earn Earn
		want float64
	}{{EarnEverySuccess, 2}, {EarnFirstAttempt, 1.5}} {
		c := Config{Ratio: 0.5, Capacity: 2, Earn: tc.earn}
		b := mustBucket(t, c)
		runSteps(t, b, []qstep{
			{"fail:error", true, 1},
			{"fail:timeout", true, 0},
			{"fail:error", false, 0},
			{"ok1", false, 0.5},
			{"ok1", false, 1},
		})
		b.Deposit(0, true, PaidToken)
		b.Deposit(0, false, NoReceipt)
		if b.Tokens() != tc.want || b.Stats().Successes != 4 {
			t.Errorf("earn %v: tokens %v (want %v), stats %+v", tc.earn, b.Tokens(), tc.want, b.Stats())
		}
	}
	if _, err := New(Config{Ratio: 0.1, Capacity: 1, Earn: 7}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("Earn 7: %v", err)
	}
	if EarnEverySuccess.String() != "every_success" || EarnFirstAttempt.String() != "first_attempt" {
		t.Error("Earn names")
	}
}

func TestNewQuota(t *testing.T) {
	b, a, p := DefaultConfig(), DefaultAWSConfig(), DefaultPerCallConfig()
	if q, err := NewQuota(QuotaConfig{}); q != nil || err != nil {
		t.Errorf("empty: %v %v", q, err)
	}
	if _, err := NewQuota(QuotaConfig{Bucket: &b, AWS: &a}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("two kinds: %v", err)
	}
	for _, c := range []QuotaConfig{{Bucket: &b}, {AWS: &a}, {PerCall: &p}} {
		if q, err := NewQuota(c); q == nil || err != nil {
			t.Errorf("%+v: %v %v", c, q, err)
		}
	}
	bad := []QuotaConfig{
		{AWS: &AWSConfig{Capacity: 0, RetryCost: 5, TimeoutCost: 10}},
		{AWS: &AWSConfig{Capacity: 500, RetryCost: 0, TimeoutCost: 10}},
		{AWS: &AWSConfig{Capacity: 500, RetryCost: 5, TimeoutCost: MaxAWSCost + 1}},
		{AWS: &AWSConfig{Capacity: 500, RetryCost: 5, TimeoutCost: 10, SuccessRefund: -1}},
		{PerCall: &PerCallConfig{EarnPerCall: -1, Capacity: 5}},
		{PerCall: &PerCallConfig{EarnPerCall: 0.1, Capacity: 0.5}},
	}
	for _, c := range bad {
		if _, err := NewQuota(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%+v: %v, want ErrInvalidConfig", c, err)
		}
	}
}
