package topology

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestBalancerList: the one list of balancers names, parses, validates and
// picks every balancer, and a balancer outside it is a configuration
// error, not a silent round-robin.
func TestBalancerList(t *testing.T) {
	for b := Balancer(0); b.known(); b++ {
		got, ok := ParseBalancer(b.String())
		if !ok || got != b {
			t.Errorf("ParseBalancer(%q) = %v, %v", b.String(), got, ok)
		}
		cfg := mm10Config(20 * time.Second)
		cfg.Services[0].Instances, cfg.Services[0].Balancer = 3, b
		res := mustRun(t, cfg)
		if res.Clients[0].Sent == 0 {
			t.Errorf("%v: nothing sent", b)
		}
	}
	if n := len(BalancerNames()); n != len(balancers) {
		t.Errorf("%d names for %d balancers", n, len(balancers))
	}
	if _, ok := ParseBalancer("weighted"); ok {
		t.Error("an unknown name parsed")
	}
	cfg := mm10Config(time.Minute)
	cfg.Services[0].Balancer = Balancer(len(balancers))
	err := cfg.Validate()
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "unknown balancer") {
		t.Errorf("Validate with balancer %d: %v", len(balancers), err)
	}
	if s := Balancer(len(balancers)).String(); s != "unknown" {
		t.Errorf("String of an unknown balancer: %q", s)
	}
}
