package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docExample returns the "$ " lines of the first code block after the
// heading that starts with heading in the Markdown file path.
func docExample(t *testing.T, path, heading string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut("\n"+string(data), "\n"+heading)
	if !ok {
		t.Fatalf("%s has no heading %q", path, heading)
	}
	_, block, ok := strings.Cut(after, "```\n")
	if !ok {
		t.Fatalf("%s: no code block after %q", path, heading)
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds [][]string
	for _, l := range strings.Split(block, "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			cmds = append(cmds, strings.Fields(c))
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("%s: the example after %q has no commands", path, heading)
	}
	return cmds
}

// TestFitDocsExample runs docs/fit.md's examples as written (the
// opening one, then the worked example: a
// mesh's metrics fitted, its Istio retries imported onto the twin, a
// database slowdown run against it. Paths in the repository are made
// absolute; everything else is written in a temporary folder.
func TestFitDocsExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three 300 s experiments")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(root, "docs", "fit.md")
	cmds := append(docExample(t, doc, "# ressim fit"), docExample(t, doc, "## Worked example")...)
	t.Chdir(t.TempDir())
	inRepo := func(a string) string {
		if strings.Contains(a, "/") && !strings.HasPrefix(a, "-") {
			if _, err := os.Stat(filepath.Join(root, a)); err == nil {
				return filepath.Join(root, a)
			}
		}
		return a
	}
	for _, c := range cmds {
		for i := range c {
			c[i] = inRepo(c[i])
		}
		switch {
		case c[0] == "ressim":
			runOK(t, c[1:]...)
		case c[0] == "cat" && len(c) == 4 && c[2] == ">>":
			data, err := os.ReadFile(c[1])
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(c[3], os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write(data); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("docs/fit.md: the example runs %q, which this test does not know", strings.Join(c, " "))
		}
	}
	merged, err := os.ReadFile("twin-policies.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"retry.attempts = 4", "mesh-istio.yaml:17:5", "rate of ressim_call_attempts_total", `dist = "hyperexponential"`} {
		if !strings.Contains(string(merged), want) {
			t.Errorf("twin-policies.toml lacks %q", want)
		}
	}
	// The storm shows: the users' p99 is far beyond the calm shop's
	// (78 ms) and the fault's verdict is in the summary.
	var s struct {
		Clients map[string]struct {
			P99 float64 `json:"p99_latency_s"`
		} `json:"clients"`
	}
	data, err := os.ReadFile(filepath.Join("storm", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if p99 := s.Clients["users"].P99; p99 < 1 {
		t.Errorf("the storm's users p99 is %.3g s; the example says it reaches seconds", p99)
	}
}
