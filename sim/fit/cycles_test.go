package fit

import (
	"reflect"
	"strings"
	"testing"
)

func TestBreakCycles(t *testing.T) {
	call := func(to ...string) []Call {
		var cs []Call
		for _, c := range to {
			cs = append(cs, Call{Callee: c, FanOut: Value{V: 1}})
		}
		return cs
	}
	m := &Model{
		Clients: []Client{{Name: "users", Target: "gw"}},
		Services: []Service{
			{Name: "account", Calls: call("auth", "db")},
			{Name: "auth", Calls: call("account", "auth")},
			{Name: "db"},
			{Name: "gw", Calls: call("auth")},
		},
	}
	breakCycles(m)
	got := map[string][]string{}
	notes := 0
	for _, s := range m.Services {
		for _, c := range s.Calls {
			got[s.Name] = append(got[s.Name], c.Callee)
		}
		for _, n := range s.Notes {
			if strings.Contains(n, "call cycle") {
				notes++
			}
		}
	}
	// From gw: gw -> auth -> account -> auth (back: dropped), account ->
	// db; auth -> auth (self: dropped).
	want := map[string][]string{"gw": {"auth"}, "auth": {"account"}, "account": {"db"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls after breaking cycles: %v, want %v", got, want)
	}
	if notes != 2 {
		t.Errorf("%d notes on dropped calls, want 2", notes)
	}
}
