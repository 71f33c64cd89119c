package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocExamples loads every ```toml block of docs/experiment-format.md,
// so the documentation cannot drift from the loader.
func TestDocExamples(t *testing.T) {
	testDocExamples(t, filepath.Join("..", "..", "docs", "experiment-format.md"), false)
}

// TestCompareDocExamples appends each ```toml fragment of docs/compare.md
// to a base experiment with a matching client and service, and loads it.
func TestCompareDocExamples(t *testing.T) {
	testDocExamples(t, filepath.Join("..", "..", "docs", "compare.md"), true)
}

// TestGameDayDocExamples appends each ```toml fragment of docs/gameday.md
// to the same base experiment, and loads it.
func TestGameDayDocExamples(t *testing.T) {
	testDocExamples(t, filepath.Join("..", "..", "docs", "gameday.md"), true)
}

const fragmentBase = `schema = 1
[experiment]
name = "fragment"
duration = "120s"
replications = 2
[[client]]
name = "users"
target = "api"
rate = 400
retry = { attempts = 3, backoff = "none" }
[[service]]
name = "api"
workers = 10
queue_capacity = 100
service_time = { dist = "exponential", mean = "10ms" }
[[fault]]
kind = "latency"
target = "api"
start = "60s"
duration = "5s"
multiply = 5
[[variant]]
name = "retry-budget"
set = { "client.users.retry_budget" = { ratio = 0.1 } }
`

func testDocExamples(t *testing.T, path string, fragments bool) {
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 1 {
		t.Fatalf("found %d toml examples in %s", len(blocks), path)
	}
	for i, b := range blocks {
		src := b[1]
		if fragments {
			src = []byte(fragmentBase + "\n" + strings.ReplaceAll(string(src), `name = "retry-budget"
description`, `name = "retry-budget-2"
description`))
		}
		if _, err := Parse(path, src); err != nil {
			t.Errorf("example %d: %v", i+1, err)
		}
	}
}
