package wall

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ressim/ressim/sim/policies"
	"github.com/ressim/ressim/sim/policies/budget"
	"github.com/ressim/ressim/sim/policies/outlier"
)

// hostsRT is an in-memory base RoundTripper: it answers each host with the
// status in codes and logs the hosts it was sent to.
type hostsRT struct {
	codes map[string]int
	sent  []string
}

func (h *hostsRT) RoundTrip(r *http.Request) (*http.Response, error) {
	h.sent = append(h.sent, r.URL.Host)
	code := h.codes[r.URL.Host]
	return &http.Response{StatusCode: code, Status: fmt.Sprint(code), Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: r}, nil
}

func outlierConfig() *outlier.Config {
	oc := outlier.DefaultConfig()
	oc.Consecutive5xx, oc.Interval, oc.BaseEjectionTime = 2, 10*time.Second, 30*time.Second
	return &oc
}

// TestBalancerEjectsFailingHost: round robin over a (always 500) and b;
// after a's second consecutive failure it is ejected and every request goes
// to b, until the sweep at 30 s (the first at or after 0 + 30 s of
// ejection) returns it. Close stops the sweep timer.
func TestBalancerEjectsFailingHost(t *testing.T) {
	clock := NewManualClock(0)
	var events []string
	b, err := NewBalancer(BalancerConfig{
		Hosts: []string{"a", "b"}, Outlier: outlierConfig(), Clock: clock,
		Hooks: Hooks{OutlierEvent: func(host string, ev outlier.Event) {
			events = append(events, fmt.Sprintf("%v %s %v", ev.At, host, ev.Kind))
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rt := &hostsRT{codes: map[string]int{"a": 500, "b": 200}}
	client := &http.Client{Transport: NewTransport(newTestCallerOn(t, clock, Config{}), rt, WithBalancer(b))}
	get := func() {
		resp, err := client.Get("http://service/x")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for range 6 {
		get()
	}
	if want := []string{"a", "b", "a", "b", "b", "b"}; !slices.Equal(rt.sent, want) {
		t.Fatalf("sent to %v, want %v", rt.sent, want)
	}
	if !b.Ejected(0) || b.Ejected(1) {
		t.Fatal("want a ejected, b not")
	}
	clock.Set(30 * time.Second)
	rt.sent = nil
	get()
	get()
	if want := []string{"a", "b"}; !slices.Equal(rt.sent, want) {
		t.Fatalf("after the ejection: sent to %v, want %v", rt.sent, want)
	}
	if want := []string{"0s a ejected", "30s a unejected"}; !slices.Equal(events, want) {
		t.Fatalf("events %q, want %q", events, want)
	}
	b.Close()
	if n := clock.Timers(); n != 0 {
		t.Fatalf("%d timers armed after Close", n)
	}
}

func TestBalancerNoHost(t *testing.T) {
	clock := NewManualClock(0)
	oc := outlierConfig()
	oc.MaxEjectionPercent = 100
	b, err := NewBalancer(BalancerConfig{Hosts: []string{"a"}, Outlier: oc, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rt := &hostsRT{codes: map[string]int{"a": 502}}
	client := &http.Client{Transport: NewTransport(newTestCallerOn(t, clock, Config{}), rt, WithBalancer(b))}
	for range 2 {
		resp, err := client.Get("http://service/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	_, err = client.Get("http://service/")
	if !errors.Is(err, ErrNoHost) || OutcomeOf(err) != policies.Rejected {
		t.Fatalf("with every host ejected: %v, want ErrNoHost (rejected)", err)
	}
}

// TestTransportRetriesOnNextHost: under the Envoy-style concurrency budget
// (0 % of the calls in flight, floor 1 retry) the retry of an attempt that
// failed on a is allowed and goes to the next host, b.
func TestTransportRetriesOnNextHost(t *testing.T) {
	clock := NewManualClock(0)
	b, err := NewBalancer(BalancerConfig{Hosts: []string{"a", "b"}, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	rt := &hostsRT{codes: map[string]int{"a": 500, "b": 200}}
	c := newTestCallerOn(t, clock, Config{Retry: noBackoff(2), RetryConcurrency: &budget.ConcurrencyConfig{MinRetryConcurrency: 1}})
	client := &http.Client{Transport: NewTransport(c, rt, WithBalancer(b))}
	resp, err := client.Get("http://service/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET = %v, %v", resp, err)
	}
	resp.Body.Close()
	if !slices.Equal(rt.sent, []string{"a", "b"}) {
		t.Fatalf("sent to %v, want a then b", rt.sent)
	}
}

func TestNewBalancerRejectsBadConfig(t *testing.T) {
	for name, cfg := range map[string]BalancerConfig{
		"no hosts":    {},
		"repeated":    {Hosts: []string{"a", "a"}},
		"empty":       {Hosts: []string{""}},
		"bad outlier": {Hosts: []string{"a"}, Outlier: &outlier.Config{}},
	} {
		if _, err := NewBalancer(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
