package topology

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"
)

// TestDoorLeavesOutOnlyMootTimeouts: send leaves out the timeout of an
// attempt refused at the door of a full queue (refusesAtOnce), whose
// answer is due at once. Each model here runs twice, as it is and with
// every site's door flag cleared, so that every attempt's timeout is
// scheduled as before; the results must be equal to the last counter and
// histogram, the number of events included (a timeout left out is one
// that would have been cancelled, never fired). The models cover a
// constant timeout on its lane, a drawn one, and deadlines that have
// passed when the attempt is sent, where the timeout is due at once and
// must still be scheduled, ahead of the refusal.
func TestDoorLeavesOutOnlyMootTimeouts(t *testing.T) {
	spike := []FaultConfig{{Kind: LatencyFault, Target: "api", Instance: -1, Start: 10 * time.Second, End: 15 * time.Second, Multiply: 5}}
	storm := func(p CallPolicy) Config {
		return Config{Name: "door", Duration: 40 * time.Second, Warmup: time.Second, Seed: 4,
			Clients:  []ClientConfig{{Name: "users", Target: "api", Rate: 800, Deadline: constant(time.Second), Call: p}},
			Services: []ServiceConfig{{Name: "api", Workers: 10, QueueCapacity: 200, Steps: work(expo(10 * ms))}},
			Faults:   spike,
		}
	}
	// The back end's cache lookup outlasts some propagated deadlines: the
	// miss is then sent with its deadline passed, its timeout due at once.
	late := Config{Name: "door-late", Duration: 20 * time.Second, Seed: 5, PropagateDeadlines: true,
		Clients: []ClientConfig{{Name: "users", Target: "front", Rate: 300, Deadline: constant(30 * ms)}},
		Services: []ServiceConfig{
			{Name: "front", Workers: 1000, QueueCapacity: -1, Steps: []Step{
				callStep("back", true, CallPolicy{Timeout: time.Second, Retry: retries(2)}),
			}},
			{Name: "back", Workers: 1, QueueCapacity: 3, Steps: work(expo(20 * ms)),
				Cache: &CacheConfig{HitRatio: 0.1, Keys: 10, Latency: expo(40 * ms)}},
		},
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		at   string // the service whose door refuses
	}{
		{"constant timeout", storm(CallPolicy{Timeout: 100 * ms, Retry: retries(3)}), "api"},
		{"drawn timeout", storm(CallPolicy{Timeout: 100 * ms, TimeoutExponential: true, Retry: retries(3)}), "api"},
		{"deadline passed", late, "back"},
	} {
		run := func(door bool) *Result {
			m, err := New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range m.sites {
				s.door = s.door && door
			}
			res, err := m.Run()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		with, without := run(true), run(false)
		if r := svcResult(t, with, tc.at).Rejected; r < 100 {
			t.Fatalf("%s: %d attempts refused at %s: the model does not test the door", tc.name, r, tc.at)
		}
		if d := firstDifference(reflect.ValueOf(with), reflect.ValueOf(without), "Result"); d != "" {
			t.Errorf("%s: the results differ when every timeout is scheduled: %s", tc.name, d)
		}
	}
}

// firstDifference returns the path of the first value that differs
// between a and b, unexported fields included, or "" if none does. It is
// reflect.DeepEqual but for NaN, which it takes as equal to NaN: a time
// series column holds NaN for an interval with nothing to measure.
func firstDifference(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path
			}
			return ""
		}
		return firstDifference(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := firstDifference(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + " (length)"
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDifference(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return path + " (length)"
		}
		for _, k := range a.MapKeys() {
			if d := firstDifference(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return fmt.Sprintf("%s: %v and %v", path, x, y)
		}
	case reflect.Func:
		if a.IsNil() != b.IsNil() {
			return path
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path
		}
	case reflect.String:
		if a.String() != b.String() {
			return path
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d and %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d and %d", path, a.Uint(), b.Uint())
		}
	default:
		return path + " (kind " + a.Kind().String() + " not compared)"
	}
	return ""
}
