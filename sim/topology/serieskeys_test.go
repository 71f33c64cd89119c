package topology

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSeriesKeysDocumented: every time-series metric has its row in the
// docs' timeseries.csv table, with the same owner and unit, and the table
// has no row for a metric that does not exist.
func TestSeriesKeysDocumented(t *testing.T) {
	src, err := os.ReadFile("../../docs/experiment-format.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| (`all_clients`|client|service|call site) \\| ((?:`[a-z_0-9]+`(?:, )?)+) \\| ([^|]+) \\|")
	documented := map[SeriesKey]bool{}
	for _, m := range row.FindAllStringSubmatch(string(src), -1) {
		owner := strings.Trim(m[1], "`")
		for _, name := range strings.Split(m[2], ", ") {
			documented[SeriesKey{Name: strings.Trim(name, "`"), Unit: strings.TrimSpace(m[3]), Owner: ownerNamed(t, owner)}] = true
		}
	}
	keys := map[SeriesKey]bool{}
	for _, k := range SeriesKeys() {
		keys[k] = true
		if !documented[k] {
			t.Errorf("%s %q (%s) has no row in docs/experiment-format.md's time-series table", k.Owner, k.Name, k.Unit)
		}
	}
	for k := range documented {
		if !keys[k] {
			t.Errorf("docs/experiment-format.md documents %s %q (%s), which SeriesKeys does not list", k.Owner, k.Name, k.Unit)
		}
	}
}

func ownerNamed(t *testing.T, s string) SeriesOwner {
	for o := OwnerTotal; o <= OwnerSite; o++ {
		if o.String() == s {
			return o
		}
	}
	t.Fatalf("unknown owner %q", s)
	return 0
}

// TestSeriesKeysUnique: no two keys of one owner share a name.
func TestSeriesKeysUnique(t *testing.T) {
	seen := map[[2]string]bool{}
	for _, k := range SeriesKeys() {
		id := [2]string{k.Owner.String(), k.Name}
		if seen[id] {
			t.Errorf("%s %q listed twice", k.Owner, k.Name)
		}
		seen[id] = true
	}
}
