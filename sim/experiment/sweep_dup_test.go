package experiment

import (
	"strings"
	"testing"
)

// TestSweepVariantsListedTwice: a sweep.variants list with a duplicate was
// accepted on main (issue 10) and ran every cell of that variant twice.
func TestSweepVariantsListedTwice(t *testing.T) {
	src := `schema = 1
[experiment]
name = "dup"
duration = "10s"
[[client]]
name = "users"
target = "api"
rate = 10
[[service]]
name = "api"
workers = 2
service_time = { dist = "exponential", mean = "10ms" }
[[variant]]
name = "more"
set = { "service.api.workers" = 4 }
[sweep]
x = { path = "client.users.rate", values = [10, 20] }
variants = ["more", "more"]
`
	_, err := Parse("dup.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `variant "more" is listed twice`) {
		t.Fatalf("got %v, want the duplicate reported", err)
	}
	if !strings.Contains(err.Error(), "dup.toml:18:21:") {
		t.Errorf("error %v does not point at the second element (line 18, column 21)", err)
	}
}
