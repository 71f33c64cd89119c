package experiment

import (
	"strings"
	"testing"

	"github.com/ressim/ressim/sim/topology"
)

const stickyBase = `schema = 1
[experiment]
name = "sticky"
duration = "60s"
[[client]]
name = "users"
target = "db"
rate = 100
[[service]]
name = "db"
workers = 10
service_time = { dist = "constant", mean = "1ms" }
  [service.cache]
  hit_ratio = 0.5
  keys = 400
[[fault]]
kind = "error"
target = "db"
start = "10s"
end = "20s"
rate = 1
`

// TestStickyFault: a sticky table is read into the fault, and its
// mistakes are reported at their key.
func TestStickyFault(t *testing.T) {
	e, err := Parse("s.toml", []byte(stickyBase+`sticky = { by = "key", share = 0.25 }`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Model.Faults[0].Sticky; got == nil || got.By != topology.StickyByKey || got.Share != 0.25 || got.Keys != 0 {
		t.Fatalf("sticky = %+v", got)
	}
	for _, c := range []struct{ line, want string }{
		{`sticky = { by = "user", share = 0 }`, `s.toml:22:25: fault[0].sticky.share: must be in (0, 1]`},
		{`sticky = { by = "users", share = 0.1 }`, `s.toml:22:12: fault[0].sticky.by: unknown value "users" (did you mean "user"?)`},
		{`sticky = { share = 0.1 }`, `fault[0].sticky: a sticky fault needs by: one of user, key, request`},
		{`sticky = { by = "key", share = 0.1, users = 10 }`, `s.toml:22:37: fault[0].sticky.users: key "users" does not apply here`},
		{`sticky = { by = "user", share = 0.1, keys = 10 }`, `fault[0].sticky.keys: key "keys" does not apply here`},
		{`sticky = { by = "key", share = 0.1, keys = 0 }`, `fault[0].sticky.keys: must be in [1, 2^30]`},
		{`sticky = { by = "user", share = 0.1, users = 2.5 }`, `fault[0].sticky.users: expected an integer`},
		{`sticky = { by = "request", share = 0.1, shard = 1 }`, `unknown key "shard"`},
		{`sticky = "user"`, `fault[0].sticky: expected a table, got a string`},
	} {
		_, err := Parse("s.toml", []byte(stickyBase+c.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\ngot  %v\nwant %s", c.line, err, c.want)
		}
	}
	crash := strings.Replace(stickyBase, `kind = "error"`, `kind = "crash"`, 1)
	crash = strings.Replace(crash, "rate = 1\n", `sticky = { by = "user", share = 0.1 }`+"\n", 1)
	if _, err := Parse("s.toml", []byte(crash)); err == nil || !strings.Contains(err.Error(), `key "sticky" does not apply here`) {
		t.Errorf("sticky on a crash fault: %v", err)
	}
}
