package lifo

import (
	"errors"
	"testing"
	"time"
)

// Fail at Scale's controlled delay and adaptive LIFO, N = 100 ms, M = 5 ms.
func TestPolicySteps(t *testing.T) {
	cfg := DefaultConfig()
	cfg.LIFOThreshold = 50
	p, err := NewPolicy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		at          time.Duration
		n           int // queue length observed
		wantTimeout time.Duration
		wantMode    Mode
	}{
		{at: 0, n: 0, wantTimeout: 100 * ms, wantMode: FIFO},         // empty now
		{at: 50 * ms, n: 3, wantTimeout: 100 * ms, wantMode: FIFO},   // non-empty for 50 ms
		{at: 100 * ms, n: 3, wantTimeout: 100 * ms, wantMode: FIFO},  // exactly N: not yet (lastEmpty < now - N is strict)
		{at: 101 * ms, n: 3, wantTimeout: 5 * ms, wantMode: LIFO},    // not empty for > N: M and LIFO
		{at: 200 * ms, n: 1, wantTimeout: 5 * ms, wantMode: LIFO},    // still never empty
		{at: 201 * ms, n: 0, wantTimeout: 100 * ms, wantMode: FIFO},  // empty: back to N and FIFO
		{at: 250 * ms, n: 60, wantTimeout: 100 * ms, wantMode: LIFO}, // long queue: LIFO by threshold, timeout still N
		{at: 302 * ms, n: 10, wantTimeout: 5 * ms, wantMode: LIFO},
	}
	for i, s := range steps {
		if got := p.Timeout(s.at, s.n); got != s.wantTimeout {
			t.Errorf("step %d at %v n %d: Timeout %v, want %v", i, s.at, s.n, got, s.wantTimeout)
		}
		if got := p.Mode(s.at, s.n); got != s.wantMode {
			t.Errorf("step %d at %v n %d: Mode %v, want %v", i, s.at, s.n, got, s.wantMode)
		}
	}
	if p.LastEmpty() != 201*ms {
		t.Errorf("LastEmpty %v, want 201ms", p.LastEmpty())
	}
}

func TestPolicyFixedDisciplines(t *testing.T) {
	for _, tc := range []struct {
		d    Discipline
		want Mode
	}{{AlwaysFIFO, FIFO}, {AlwaysLIFO, LIFO}} {
		cfg := DefaultConfig()
		cfg.Discipline = tc.d
		p, _ := NewPolicy(cfg)
		for _, at := range []time.Duration{0, 50 * ms, time.Second} {
			if got := p.Mode(at, 5); got != tc.want {
				t.Errorf("%v at %v: %v, want %v", tc.d, at, got, tc.want)
			}
		}
		if got := p.Timeout(time.Second, 5); got != 5*ms {
			t.Errorf("%v: timeout %v under overload, want 5ms", tc.d, got)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.Discipline = 9 },
		func(c *Config) { c.Interval = 0 },
		func(c *Config) { c.ShortTimeout = 0 },
		func(c *Config) { c.ShortTimeout = 101 * ms },
		func(c *Config) { c.LIFOThreshold = -1 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if _, err := NewPolicy(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("bad config %d: error %v, want ErrInvalidConfig", i, err)
		}
		if _, err := NewAdaptiveQueue[int](4, c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("bad config %d: NewAdaptiveQueue error %v, want ErrInvalidConfig", i, err)
		}
	}
	if _, err := NewAdaptiveQueue[int](0, DefaultConfig()); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("capacity 0: error %v, want ErrInvalidConfig", err)
	}
	for _, s := range []string{Adaptive.String(), AlwaysFIFO.String(), AlwaysLIFO.String(), Discipline(9).String(),
		FIFO.String(), LIFO.String(), Mode(9).String(), Empty.String(), Deliver.String(), Expired.String(), Result(9).String()} {
		if s == "" {
			t.Error("empty String")
		}
	}
	if Discipline(9).String() != "unknown" || Mode(9).String() != "unknown" || Result(9).String() != "unknown" {
		t.Error("out-of-range String")
	}
}
